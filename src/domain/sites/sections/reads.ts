import { readModel } from '../../../kernel/read-models.js';

const byPosition = [
  ['position', 'asc'],
  ['id', 'asc'],
] as const;

/** How sections are read (kernel/read-models.ts): their site spaces and group nest under them. */
export const SiteSectionReads = readModel({
  type: 'SiteSection',
  entity: 'SiteSection',
  key: 'id',
  // A site's structure tells sections from groups by their path (SiteStructureItem).
  always: ['site', 'path'],
  needs: {
    object: [],
    default: [],
    urls: ['organization'],
    site: [],
    defaultSiteSpace: ['defaultSiteSpace'],
  },
  relations: {
    siteSpaces: { many: 'SiteSpace', foreignKey: 'section', order: byPosition },
    group: { one: 'SiteSectionGroup', key: 'sectionGroup' },
  },
});

/** How section groups are read: their sections nest under them. */
export const SiteSectionGroupReads = readModel({
  type: 'SiteSectionGroup',
  entity: 'SiteSectionGroup',
  key: 'id',
  always: ['site'],
  needs: { object: [], site: [] },
  relations: {
    sections: { many: 'SiteSection', foreignKey: 'sectionGroup', order: byPosition },
  },
});
