/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const COLLECTION = /* GraphQL */ `
  fragment CollectionFields on Collection {
    object id title description organization parent defaultLevel
    urls { location app }
    permissions { view admin viewInviteLinks create }
  }
`;
