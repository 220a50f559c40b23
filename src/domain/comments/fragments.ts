import { USER } from '../users/index.js';

/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

const REACTIONS = /* GraphQL */ `reactions { emoji count users { user { ...UserFields } reactedAt } }`;

/** Comment and reply fields; the documents using them declare `$format`. */
export const COMMENT = /* GraphQL */ `
  fragment CommentFields on Comment {
    object id postedBy { ...UserFields } postedAt editedAt ${REACTIONS} replies
    body(format: $format) { markdown document }
    target {
      node { id preview } changeRequest review space revision
      page { id title emoji icon createdAt updatedAt path outdated }
    }
    urls { location }
    permissions { view edit reply react delete }
    status resolvedAt resolvedBy { ...UserFields }
  }
  ${USER}
`;

export const COMMENT_REPLY = /* GraphQL */ `
  fragment CommentReplyFields on CommentReply {
    object id postedBy { ...UserFields } postedAt editedAt ${REACTIONS}
    body(format: $format) { markdown document }
    urls { location }
    permissions { view edit reply react delete }
  }
  ${USER}
`;
