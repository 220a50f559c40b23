/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const SHARE_LINK = /* GraphQL */ `
  fragment ShareLinkFields on ShareLink { object id createdAt name active urls { published } }
`;
