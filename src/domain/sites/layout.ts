import type { EntityManager } from '@mikro-orm/postgresql';
import { jsonListOf, plainQuery, rowsOf, tableOf } from '../../db/plain-rows.js';
import { Space, type SpaceRow } from '../spaces/entities.js';
import { SiteSection, SiteSectionGroup, SiteSpace, type SiteSectionGroupRow, type SiteSectionRow, type SiteSpaceRow } from './entities.js';

/** Everything a site's navigation is made of, each list in position order, and the spaces it publishes. */
export type SiteLayout = {
  site: string;
  sections: SiteSectionRow[];
  groups: SiteSectionGroupRow[];
  siteSpaces: SiteSpaceRow[];
  spaces: SpaceRow[];
};

const byPosition = { position: 'asc', id: 'asc' } as const;
let statement: string | undefined;

/**
 * Reads the layouts of sites in one statement, whatever their size: a site tree is the headline read of
 * the GraphQL door, and each statement costs a round trip and the driver's work on its rows (the
 * lists arrive as JSON documents, see plain-rows). Sites that do not exist get empty layouts.
 */
export async function readSiteLayouts(em: EntityManager, siteIds: readonly string[]): Promise<SiteLayout[]> {
  statement ??= `select k.id as "site",
    (select ${jsonListOf(em, SiteSection, 'x', byPosition)} from ${tableOf(em, SiteSection)} x where x.site_id = k.id) as "sections",
    (select ${jsonListOf(em, SiteSectionGroup, 'x', byPosition)} from ${tableOf(em, SiteSectionGroup)} x where x.site_id = k.id) as "groups",
    (select ${jsonListOf(em, SiteSpace, 'x', byPosition)} from ${tableOf(em, SiteSpace)} x where x.site_id = k.id) as "siteSpaces",
    (select ${jsonListOf(em, Space, 'x')} from ${tableOf(em, Space)} x where x.id in (select space_id from ${tableOf(em, SiteSpace)} where site_id = k.id)) as "spaces"
    from unnest($1::varchar[]) as k(id)`;
  type Tuples = unknown[][];
  const rows = await plainQuery<{ site: string; sections: Tuples; groups: Tuples; siteSpaces: Tuples; spaces: Tuples }>(em, statement, [siteIds]);
  const layouts = rows.map((row) => ({
    site: row.site,
    sections: rowsOf<SiteSectionRow>(em, SiteSection, row.sections),
    groups: rowsOf<SiteSectionGroupRow>(em, SiteSectionGroup, row.groups),
    siteSpaces: rowsOf<SiteSpaceRow>(em, SiteSpace, row.siteSpaces),
    spaces: rowsOf<SpaceRow>(em, Space, row.spaces),
  }));
  return layouts;
}
