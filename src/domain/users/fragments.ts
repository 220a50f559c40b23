/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const USER = /* GraphQL */ `
  fragment UserFields on User { object id displayName email photoURL urls { location } }
`;
