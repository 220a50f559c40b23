/** The public face of the sites area: what other areas and the wiring may use of it. */
export { ShareLink, Site, SiteAdaptiveSchema, SiteSection, SiteSectionGroup, SiteSpace } from './entities.js';
export type {
  ShareLinkEntity,
  ShareLinkRow,
  SiteAdaptiveSchemaRow,
  SiteEntity,
  SiteRow,
  SiteSectionEntity,
  SiteSectionGroupEntity,
  SiteSectionGroupRow,
  SiteSectionRow,
  SiteSpaceEntity,
  SiteSpaceRow,
} from './entities.js';
export { recordShareLinkEvent, recordSiteEvent, recordStructureChange } from './events.js';
export type { StructureChange } from './events.js';
export { siteLoaders } from './loaders.js';
export { validateCondition } from './published/conditions.js';
export { SECTION_GROUPS_OF_SITE, SECTIONS_OF_SITE, siteNavigationLists } from './published/navigation-lists.js';
export { PATH_MAX, noReadableSpace, publishableSpace, slugOf, uniquePath } from './published/paths.js';
export { sectionPublishedUrl, shareLinkPublishedUrl, siteBaseUrl, siteBaseUrlSql, siteJoin, siteSpacePublishedUrl, siteUrls } from './published/urls.js';
export { sectionOfSite } from './section-of-site.js';
export { siteStructuresStatement, structureShapes, type StructureShapes } from './published/structure.js';
