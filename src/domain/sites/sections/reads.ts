import sql from 'sql-template-tag';
import { readModel } from '../../../kernel/read-models.js';
import { PUBLIC_URL } from '../../../kernel/request-values.js';
import { siteJoin } from '../index.js';

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
  sql: {
    object: () => sql`'site-section'::text`,
    draft: () => sql`false`,
    /** The site's default section (the resolver's rule, in SQL). */
    default: (alias, _em, joined) => sql`coalesce(${joined('site')}.default_section = ${alias}.id, false)`,
  },
  objects: {
    /** Like the site's: only a published site has published URLs (the resolver's rule, in SQL). */
    urls: {
      fields: {
        location: (alias) =>
          sql`${PUBLIC_URL}::text || '/v1/orgs/' || ${alias}.organization_id || '/sites/' || ${alias}.site_id || '/sections/' || ${alias}.id`,
        published: (alias, _em, joined) => sql`case when ${joined('site')}.published then ${joined('site')}.base_url || '/' || ${alias}.path end`,
      },
    },
  },
  relations: {
    siteSpaces: { many: 'SiteSpace', foreignKey: 'section', order: byPosition },
    group: { one: 'SiteSectionGroup', key: 'sectionGroup' },
  },
  joins: { site: siteJoin((section) => sql`${section}.site_id`) },
});

/** How section groups are read: their sections nest under them. */
export const SiteSectionGroupReads = readModel({
  type: 'SiteSectionGroup',
  entity: 'SiteSectionGroup',
  key: 'id',
  always: ['site'],
  needs: { object: [], site: [] },
  sql: { object: () => sql`'site-section-group'::text`, draft: () => sql`false` },
  relations: {
    sections: { many: 'SiteSection', foreignKey: 'sectionGroup', order: byPosition },
    children: { many: 'SiteSection', foreignKey: 'sectionGroup', order: byPosition },
  },
});
