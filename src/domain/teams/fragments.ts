/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const TEAM = /* GraphQL */ `
  fragment TeamFields on Team { object id title members spaces createdAt permissions { admin view } }
`;
