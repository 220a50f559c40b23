import { USER } from '../users/index.js';

/** Selections of the contract's fields of this area's resources (and `space`, which the current client requires), shared by the routes. */

export const CHANGE_REQUEST = /* GraphQL */ `
  fragment ChangeRequestFields on ChangeRequest {
    object id number status subject createdBy { ...UserFields } createdAt updatedAt
    revision revisionInitial revisionMergedAncestor revisionMerged comments outdated
    urls { app location } space: spaceId
  }
  ${USER}
`;
