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

/**
 * What another area knows about each space a site publishes (counts of its change requests, of its
 * comments), read in the layout's statement: `sql` is a scalar subquery over the spaces `spaceIds`
 * (a subquery) selects, whose JSON value `remember` hands to that area's loaders.
 */
export type SpaceFacts<T> = {
  sql: (spaceIds: string) => string;
  remember: (spaceIds: readonly string[], value: T) => void;
};

const byPosition = { position: 'asc', id: 'asc' } as const;
const statements = new Map<string, string>();

/**
 * Reads the layouts of sites in one statement, whatever their size: a site tree is the headline read of
 * the GraphQL door, and each statement costs a round trip and the driver's work on its rows (the
 * lists arrive as JSON documents, see plain-rows). Sites that do not exist get empty layouts.
 */
export async function readSiteLayouts(em: EntityManager, siteIds: readonly string[], facts: readonly SpaceFacts<never>[] = []): Promise<SiteLayout[]> {
  const spaceIds = `select space_id from ${tableOf(em, SiteSpace)} where site_id = k.id`;
  const factColumns = facts.map((fact, i) => `,\n    (${fact.sql(spaceIds)}) as "fact${i}"`).join('');
  let statement = statements.get(factColumns);
  if (statement === undefined) {
    statement = `select k.id as "site",
    (select ${jsonListOf(em, SiteSection, 'x', byPosition)} from ${tableOf(em, SiteSection)} x where x.site_id = k.id) as "sections",
    (select ${jsonListOf(em, SiteSectionGroup, 'x', byPosition)} from ${tableOf(em, SiteSectionGroup)} x where x.site_id = k.id) as "groups",
    (select ${jsonListOf(em, SiteSpace, 'x', byPosition)} from ${tableOf(em, SiteSpace)} x where x.site_id = k.id) as "siteSpaces",
    (select ${jsonListOf(em, Space, 'x')} from ${tableOf(em, Space)} x where x.id in (${spaceIds})) as "spaces"${factColumns}
    from unnest($1::varchar[]) as k(id)`;
    statements.set(factColumns, statement);
  }
  type Tuples = unknown[][];
  const rows = await plainQuery<Record<string, unknown> & { site: string; sections: Tuples; groups: Tuples; siteSpaces: Tuples; spaces: Tuples }>(em, statement, [siteIds]);
  return rows.map((row) => {
    const layout = {
      site: row.site,
      sections: rowsOf<SiteSectionRow>(em, SiteSection, row.sections),
      groups: rowsOf<SiteSectionGroupRow>(em, SiteSectionGroup, row.groups),
      siteSpaces: rowsOf<SiteSpaceRow>(em, SiteSpace, row.siteSpaces),
      spaces: rowsOf<SpaceRow>(em, Space, row.spaces),
    };
    const ids = layout.spaces.map((space) => space.id);
    facts.forEach((fact, i) => fact.remember(ids, row[`fact${i}`] as never));
    return layout;
  });
}
