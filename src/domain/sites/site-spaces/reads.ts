import sql from 'sql-template-tag';
import { readModel } from '../../../kernel/read-models.js';
import { PUBLIC_URL } from '../../../kernel/request-values.js';
import { siteBaseUrlSql } from '../index.js';
import { SHARE_KEY_QUERIES } from './share-keys.js';
import { columnOf, tableOf } from '../../../db/statements.js';

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
    draft: () => sql`false`,
    /** The default of its section, or of the site's root level (isDefaultSiteSpace, in SQL). */
    default: (alias) => sql`coalesce(case when ${alias}.section_id is not null
        then (select sec.default_site_space from site_section sec where sec.id = ${alias}.section_id and sec.site_id = ${alias}.site_id) = ${alias}.id
        else (select s.default_site_space from site s where s.id = ${alias}.site_id) = ${alias}.id end, false)`,
    /** A site space's title is its space's. */
    title: (alias, em) =>
      sql`coalesce((select t.${columnOf(em, 'Space', 'title')} from ${tableOf(em, 'Space')} t where t.${columnOf(em, 'Space', 'id')} = ${alias}.${columnOf(em, 'SiteSpace', 'space')}), '')`,
  },
  objects: {
    /** The published URL while the site is published, with the share key that opened it (siteSpaceUrl, in SQL). */
    urls: {
      from: (alias) => sql`select s.published, ${siteBaseUrlSql(sql`s`)} as base, sec.path as section_path from (select) one
        left join site s on s.id = ${alias}.site_id left join site_section sec on sec.id = ${alias}.section_id and sec.site_id = ${alias}.site_id`,
      fields: {
        location: (alias) =>
          sql`${PUBLIC_URL}::text || '/v1/orgs/' || ${alias}.organization_id || '/sites/' || ${alias}.site_id || '/site-spaces/' || ${alias}.id`,
        published: (alias) =>
          sql`case when o.published then o.base || coalesce('/' || o.section_path, '') || '/' || ${alias}.path || coalesce(${SHARE_KEY_QUERIES}::json ->> ${alias}.site_id, '') end`,
      },
    },
  },
  relations: {
    space: { one: 'Space', key: 'space' },
    siteSection: { one: 'SiteSection', key: 'section' },
  },
});
