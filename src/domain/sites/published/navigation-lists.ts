import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { empty, type Sql } from 'sql-template-tag';
import { pageLoader, type SortKey } from '../../../db/pages.js';
import { jsonTupleOf, tableOf } from '../../../db/statements.js';
import { Space } from '../../spaces/index.js';
import { countsStatement } from '../../../db/row-counts.js';
import { Site, SiteSection, SiteSectionGroup, SiteSpace, type SiteSectionGroupRow, type SiteSectionRow, type SiteSpaceRow } from '../entities.js';

/** The navigation order the database keeps (`nav_key`, Migration20261202090000). */
const inNavigationOrder = <T extends { navKey: readonly string[] }>(): SortKey<T>[] => [{ sql: 'x.nav_key', array: true, of: (row) => row.navKey }];

const byPosition: SortKey<SiteSectionGroupRow>[] = [
  { sql: 'x.position', of: (g) => g.position },
  { sql: 'x.id', of: (g) => g.id },
];

/** What a page of sections reads beside each section, for a request that asks for it below the page. */
export type SectionNesting = 'none' | 'siteSpaces' | 'siteSpacesAndSpaces';

/**
 * A section's site spaces by position as a JSON list of tuples `[siteSpace, space?]` (each as
 * `rowsOf` reads it): a page of sections and what its items show in one statement, each section's site
 * spaces through the index on their section (as the site-spaces loader reads them).
 */
function siteSpacesOfSection(em: EntityManager, withSpaces: boolean): Sql {
  const space = withSpaces ? sql`, (select ${jsonTupleOf(em, Space, 'sp')} from ${tableOf(em, Space)} sp where sp.id = n.space_id)` : empty;
  return sql`(select coalesce(json_agg(json_build_array(${jsonTupleOf(em, SiteSpace, 'n')}${space}) order by n.position, n.id), '[]')
    from ${tableOf(em, SiteSpace)} n where n.section_id = x.id)`;
}

/**
 * The lists of a site's navigation, each page read through an index in navigation order, for every site
 * of a GraphQL level at once. The whole layout (the tree) is the layout loaders'; these serve pages.
 */
export function siteNavigationLists(em: EntityManager) {
  const site = (siteId: string) => siteId;
  /** Site spaces of the site, all of them or only those that are (or are not) the default of their section or root level. */
  const siteSpaces = (isDefault: boolean | null) =>
    pageLoader(em, site, async () => {
      const defaultOf = sql`coalesce(x.id = case when x.section_id is null
        then (select t.default_site_space from ${tableOf(em, Site)} t where t.id = x.site_id)
        else (select t.default_site_space from ${tableOf(em, SiteSection)} t where t.id = x.section_id) end, false)`;
      const where: Sql = isDefault === null ? sql`true` : sql`${defaultOf} = ${isDefault}`;
      // The database keeps the number of a site's site spaces; the defaults' part of it is counted.
      const counts = isDefault === null ? (keys: readonly string[]) => countsStatement('site_spaces_of_site', keys) : undefined;
      return { entity: SiteSpace, alias: 'x', partition: 'x.site_id', where, order: inNavigationOrder<SiteSpaceRow>(), extra: { navKey: 'x.nav_key' }, counts };
    });
  /** Every section of a site (top-level and grouped) in navigation order, with what the page brings along of each. */
  const sections = (nesting: SectionNesting) =>
    pageLoader(em, site, async () => ({
      entity: SiteSection,
      alias: 'x',
      partition: 'x.site_id',
      where: sql`true`,
      order: inNavigationOrder<SiteSectionRow>(),
      extra: { navKey: 'x.nav_key' },
      nested: nesting === 'none' ? undefined : { siteSpaces: siteSpacesOfSection(em, nesting === 'siteSpacesAndSpaces') },
      counts: (keys) => countsStatement('sections_of_site', keys),
    }));
  return {
    sectionsOfSite: sections('none'),
    /** The same pages, each section with its site spaces (`siteSpacesOfSection`). */
    sectionsWithSiteSpaces: sections('siteSpaces'),
    /** The same pages, each section with its site spaces and their spaces. */
    sectionsWithSpaces: sections('siteSpacesAndSpaces'),
    /** The section groups of a site by position. */
    sectionGroupsOfSite: pageLoader(em, site, async () => ({
      entity: SiteSectionGroup,
      alias: 'x',
      partition: 'x.site_id',
      where: sql`true`,
      order: byPosition,
    })),
    siteSpacesOfSite: siteSpaces(null),
    defaultSiteSpacesOfSite: siteSpaces(true),
    otherSiteSpacesOfSite: siteSpaces(false),
  };
}

declare module '../../../kernel/request-lists.js' {
  interface Lists extends ReturnType<typeof siteNavigationLists> {}
}
