import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { type Sql } from 'sql-template-tag';
import { pageLoader, type SortKey } from '../../../db/pages.js';
import { tableOf } from '../../../db/statements.js';
import { childPageLoader, type ChildList } from '../../../db/child-lists.js';
import { countsStatement } from '../../../db/row-counts.js';
import { Site, SiteSection, SiteSectionGroup, SiteSpace, type SiteSectionGroupRow, type SiteSectionRow, type SiteSpaceRow } from '../entities.js';

/** The navigation order the database keeps (`nav_key`, Migration20261202090000). */
const inNavigationOrder = <T extends { navKey: readonly string[] }>(): SortKey<T>[] => [{ sql: 'x.nav_key', array: true, of: (row) => row.navKey }];

/** Every section of a site in navigation order: its sections' page loader, and the Site read model's `sections`. */
export const SECTIONS_OF_SITE: ChildList<SiteSectionRow & { navKey: readonly string[] }> = {
  entity: SiteSection,
  type: 'SiteSection',
  parent: 'site_id',
  order: [{ column: 'nav_key', property: 'navKey', array: true, lazy: true }],
  counter: 'sections_of_site',
};

/** The section groups of a site by position: their page loader, and the Site read model's `sectionGroups`. */
export const SECTION_GROUPS_OF_SITE: ChildList<SiteSectionGroupRow> = {
  entity: SiteSectionGroup,
  type: 'SiteSectionGroup',
  parent: 'site_id',
  order: [
    { column: 'position', property: 'position' },
    { column: 'id', property: 'id' },
  ],
};

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
  return {
    /** Every section of a site (top-level and grouped) in navigation order. */
    sectionsOfSite: childPageLoader(em, SECTIONS_OF_SITE),
    /** The section groups of a site by position. */
    sectionGroupsOfSite: childPageLoader(em, SECTION_GROUPS_OF_SITE),
    siteSpacesOfSite: siteSpaces(null),
    defaultSiteSpacesOfSite: siteSpaces(true),
    otherSiteSpacesOfSite: siteSpaces(false),
  };
}

declare module '../../../kernel/request-lists.js' {
  interface Lists extends ReturnType<typeof siteNavigationLists> {}
}
