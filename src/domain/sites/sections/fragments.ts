import { SITE_SPACE } from '../site-spaces/index.js';

/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const SITE_SECTION = /* GraphQL */ `
  fragment SiteSectionFields on SiteSection {
    object id title description default path condition sectionGroup draft
    siteSpaces { ...SiteSpaceFields }
    urls { location published } icon
  }
  ${SITE_SPACE}
`;

export const SITE_SECTION_GROUP = /* GraphQL */ `
  fragment SiteSectionGroupFields on SiteSectionGroup {
    object id title sections { ...SiteSectionFields } icon draft children { ...SiteSectionFields }
  }
  ${SITE_SECTION}
`;

/** The selection of a site structure item (the SiteStructureItem union): the contract's fields of whichever it is. */
export const SITE_STRUCTURE_ITEM_SELECTION = `
  ... on SiteSection { ...SiteSectionFields }
  ... on SiteSectionGroup { ...SiteSectionGroupFields }
  ... on SiteSpace { ...SiteSpaceFields }
`;
