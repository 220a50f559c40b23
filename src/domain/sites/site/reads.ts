import sql, { type Sql } from 'sql-template-tag';
import { readModel } from '../../../kernel/read-models.js';
import { APP_URL, PUBLIC_URL } from '../../../kernel/request-values.js';
import { keptCount } from '../../../db/row-counts.js';
import { SECTION_GROUPS_OF_SITE, SECTIONS_OF_SITE, siteBaseUrlSql, siteStructuresStatement } from '../index.js';
import { childPages } from '../../../db/child-lists.js';

/**
 * How sites are read (kernel/read-models.ts): where the database writes the answer, a site's selection
 * is one statement with its counts, URLs, default section, structure and pages of sections and groups.
 * Each declaration states in SQL what the field's resolver answers (site/resolvers.ts), which the
 * differential test compares.
 */
export const SiteReads = readModel({
  type: 'Site',
  entity: 'Site',
  key: 'id',
  always: ['organization'],
  needs: {
    object: [],
    siteSpaces: [],
    urls: ['organization', 'published', 'hostname', 'basename'],
    adaptiveContent: ['adaptiveContentEnabled'],
  },
  sql: {
    object: () => sql`'site'::text`,
    /** The number of its site spaces, which the database keeps (as the siteSpaceCount loader reads it). */
    siteSpaces: (alias) => sql`${keptCount('site_spaces_of_site', sql`${alias}.id`)}::int`,
  },
  objects: {
    /** siteUrls: only a published site has a published URL. */
    urls: {
      fields: {
        location: (alias) => sql`${PUBLIC_URL}::text || '/v1/orgs/' || ${alias}.organization_id || '/sites/' || ${alias}.id`,
        app: (alias) => sql`${APP_URL}::text || '/o/' || ${alias}.organization_id || '/sites/' || ${alias}.id`,
        published: (alias) => sql`case when ${alias}.published then ${siteBaseUrlSql(alias)} end`,
      },
    },
    adaptiveContent: { fields: { enabled: (alias) => sql`${alias}.adaptive_content_enabled` } },
  },
  relations: {
    /** The section it names, else its first in navigation order (the defaultSection loader's rule). */
    defaultSiteSection: {
      one: 'SiteSection',
      lookup: (site) => sql`select j.* from site_section j where j.site_id = ${site}.id
        order by coalesce(j.id = ${site}.default_section, false) desc, j.nav_key, j.id limit 1`,
    },
  },
  pages: {
    /** Every section in navigation order, and the section groups by position: the lists their root fields page through. */
    sections: childPages(SECTIONS_OF_SITE),
    sectionGroups: childPages(SECTION_GROUPS_OF_SITE),
  },
  shaped: {
    /** siteStructure: its top level when it has sections, else its root-level site spaces. */
    structure: {
      shapes: ['SiteSection', 'SiteSectionGroup', 'SiteSpace'].map((type) => ({ type, path: ['structure'] })),
      from: (site, [section, group, siteSpace], em) =>
        sql`select st.* from (${siteStructuresStatement(em, sql`(select ${site}.id) as k(id)`, { section, group, siteSpace })}) st`,
      fields: {
        type: (o: Sql) => sql`case when ${o}."hasSections" then 'sections' else 'siteSpaces' end`,
        structure: (o: Sql) => sql`case when ${o}."hasSections" then ${o}."topLevel" else ${o}."siteSpaces" end`,
      },
      json: ['structure'],
    },
  },
});
