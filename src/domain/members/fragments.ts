import { USER } from '../users/index.js';

/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const MEMBER = /* GraphQL */ `
  fragment MemberFields on Member {
    object id role user { ...UserFields } disabled joinedAt lastSeenAt sso spaces teams
  }
  ${USER}
`;
