import sql from 'sql-template-tag';
import { readModel } from '../../../kernel/read-models.js';
import { PUBLIC_URL } from '../../../kernel/request-values.js';
import { siteJoin } from '../index.js';
import { SHARE_KEY_QUERIES } from './share-keys.js';
import { columnOf } from '../../../db/statements.js';

/** How site spaces are read (kernel/read-models.ts): the space they publish nests under them. */
export const SiteSpaceReads = readModel({
  type: 'SiteSpace',
  entity: 'SiteSpace',
  key: 'id',
  // A site's structure tells site spaces from sections by their space (SiteStructureItem).
  always: ['site', 'section', 'space', 'path'],
  needs: {
    object: [],
    default: [],
    hasAdvancedCustomizationFeature: [],
    urls: ['organization'],
    site: [],
  },
  sql: {
    object: () => sql`'site-space'::text`,
    draft: () => sql`false`,
    hasAdvancedCustomizationFeature: () => sql`false`,
    /** The default of its section, or of the site's root level (isDefaultSiteSpace, in SQL). */
    default: (alias, _em, joined) => sql`coalesce(case when ${alias}.section_id is not null
        then ${joined('section')}.default_site_space = ${alias}.id else ${joined('site')}.default_site_space = ${alias}.id end, false)`,
    /** A site space's title is its space's. */
    title: (_alias, em, joined) => sql`coalesce(${joined('space')}.${columnOf(em, 'Space', 'title')}, '')`,
  },
  objects: {
    /** The published URL while the site is published, with the share key that opened it (siteSpaceUrl, in SQL). */
    urls: {
      fields: {
        location: (alias) =>
          sql`${PUBLIC_URL}::text || '/v1/orgs/' || ${alias}.organization_id || '/sites/' || ${alias}.site_id || '/site-spaces/' || ${alias}.id`,
        published: (alias, _em, joined) =>
          sql`case when ${joined('site')}.published then ${joined('site')}.base_url || coalesce('/' || ${joined('section')}.path, '') || '/' || ${alias}.path
            || ${joined('site')}.share_key_query end`,
      },
    },
  },
  relations: {
    space: { one: 'Space', key: 'space' },
    siteSection: { one: 'SiteSection', key: 'section' },
  },
  joins: {
    /** Its site, with the share key that opened it as a URL's query (share-keys.ts), once per site. */
    site: siteJoin((siteSpace) => sql`${siteSpace}.site_id`, { share_key_query: (site) => sql`coalesce(${SHARE_KEY_QUERIES}::json ->> ${site}.id, '')` }),
    section: { entity: 'SiteSection', column: 'id', value: (siteSpace) => sql`${siteSpace}.section_id` },
    space: { entity: 'Space', column: 'id', value: (siteSpace, em) => sql`${siteSpace}.${columnOf(em, 'SiteSpace', 'space')}` },
  },
});
