import { SPACE } from '../../spaces/index.js';

/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const SITE_SPACE = /* GraphQL */ `
  fragment SiteSpaceFields on SiteSpace {
    object id path section space { ...SpaceFields } title default condition hasAdvancedCustomizationFeature draft
    urls { location published }
  }
  ${SPACE}
`;
