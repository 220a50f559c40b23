import { USER } from '../users/index.js';

/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const CHANGE_REQUEST = /* GraphQL */ `
  fragment ChangeRequestFields on ChangeRequest {
    object id number status subject createdBy { ...UserFields } createdAt updatedAt
    revision revisionInitial revisionMergedAncestor revisionMerged comments outdated
    urls { app location }
  }
  ${USER}
`;
