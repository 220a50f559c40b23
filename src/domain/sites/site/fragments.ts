/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const SITE = /* GraphQL */ `
  fragment SiteFields on Site {
    object id type title hostname basename proxy { origin target } visibility published siteSpaces createdAt
    adaptiveContent { enabled } ads { status submittable } agentsContext
    features { id plan frozen }
    urls { location app published }
  }
`;
