import sql from 'sql-template-tag';
import { readModel } from '../../../kernel/read-models.js';
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
    /** A site space's title is its space's. */
    title: (alias, em) =>
      sql`coalesce((select t.${columnOf(em, 'Space', 'title')} from ${tableOf(em, 'Space')} t where t.${columnOf(em, 'Space', 'id')} = ${alias}.${columnOf(em, 'SiteSpace', 'space')}), '')`,
  },
  relations: {
    space: { one: 'Space', key: 'space' },
    siteSection: { one: 'SiteSection', key: 'section' },
  },
});
