/** The public face of the sites/sections area: what other areas and the wiring may use of it. */
export { SITE_SECTION_GROUP, SITE_STRUCTURE_ITEM_SELECTION } from './fragments.js';
export { listSiteSectionGroups, listSiteSections, sectionsInNavigationOrder, topLevelRows } from './service.js';
