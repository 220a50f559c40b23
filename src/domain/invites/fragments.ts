import { COLLECTION } from '../collections/index.js';
import { SPACE } from '../spaces/index.js';

/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const INVITE_LINK = /* GraphQL */ `
  fragment InviteLinkFields on InviteLink {
    ... on OrganizationInviteLink { object id role redundant }
    ... on SpaceInviteLink { object id level redundant space { ...SpaceFields } }
    ... on CollectionInviteLink { object id level redundant collection { ...CollectionFields } }
  }
  ${SPACE}
  ${COLLECTION}
`;
