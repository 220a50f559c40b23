import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { empty, join, raw, type Sql } from 'sql-template-tag';
import { jsonListOf, readRows, rowsOf, tableOf, type Plain } from '../../../db/statements.js';
import { Space, type SpaceRow } from '../../spaces/index.js';
import { SiteSection, SiteSectionGroup, SiteSpace, type SiteSectionGroupRow, type SiteSectionRow, type SiteSpaceRow } from '../entities.js';

/** Everything a site's navigation is made of, each list in position order, and the spaces it publishes. */
export type SiteLayout = {
  site: string;
  sections: Plain<SiteSectionRow>[];
  groups: Plain<SiteSectionGroupRow>[];
  siteSpaces: Plain<SiteSpaceRow>[];
  spaces: Plain<SpaceRow>[];
};

/**
 * What another area knows about each space a site publishes (counts of its change requests, of its
 * comments), read in the layout's statement: `sql` is a scalar subquery over the spaces whose ids the
 * array expression `spaceIds` holds (to be matched with `= any(…)`, which an index answers), whose
 * JSON value `remember` hands to that area's loaders.
 */
export type SpaceFacts<T> = {
  sql: (spaceIds: Sql) => Sql;
  remember: (spaceIds: readonly string[], value: T) => void;
};

const byPosition = { position: 'asc', id: 'asc' } as const;
/** The lists every layout reads, built from the metadata (a cache of one fixed fragment). */
let lists: Sql | undefined;

/**
 * Reads the layouts of sites in one statement, whatever their size: a site tree is the headline read of
 * the GraphQL door, and each statement costs a round trip and the driver's work on its rows (the
 * lists arrive as JSON documents, see db/statements). Sites that do not exist get empty layouts.
 *
 * Every part reaches only the site's own rows through an index, so that its cost does not depend on
 * what other sites and tenants hold: the site's space ids are gathered once per site, as an array
 * (the materialized CTE keeps the planner from repeating that subquery where it is used), and spaces
 * and facts are joined to its `unnest`, which the planner expects to be short: one index lookup per
 * space, or on a small table one hash of it. A subquery `in (select …)` there would let the planner
 * choose a hash semi-join over the whole space, change request and comment tables; `x.id = any(array)`
 * let it filter a small table by comparing every row with every element (13 ms of the 15 ms statement
 * for 500 spaces beside 2,000 others, 1.6 ms joined).
 */
export async function readSiteLayouts(em: EntityManager, siteIds: readonly string[], facts: readonly SpaceFacts<never>[] = []): Promise<SiteLayout[]> {
  const factColumns = facts.length
    ? join(
        facts.map((fact, i) => sql`,\n    (${fact.sql(raw('k.space_ids'))}) as ${raw(`"fact${i}"`)}`),
        '',
      )
    : empty;
  lists ??= sql`(select ${jsonListOf(em, SiteSection, 'x', byPosition)} from ${tableOf(em, SiteSection)} x where x.site_id = k.id) as "sections",
    (select ${jsonListOf(em, SiteSectionGroup, 'x', byPosition)} from ${tableOf(em, SiteSectionGroup)} x where x.site_id = k.id) as "groups",
    (select ${jsonListOf(em, SiteSpace, 'x', byPosition)} from ${tableOf(em, SiteSpace)} x where x.site_id = k.id) as "siteSpaces",
    (select ${jsonListOf(em, Space, 'x')} from unnest(k.space_ids) as u(id) join ${tableOf(em, Space)} x on x.id = u.id) as "spaces"`;
  const statement = sql`with k as materialized (
      select s.id, array(select x.space_id from ${tableOf(em, SiteSpace)} x where x.site_id = s.id) as space_ids
      from unnest(${siteIds}::varchar[]) as s(id)
    )
    select k.id as "site",
    ${lists}${factColumns}
    from k`;
  type Tuples = unknown[][];
  const rows = await readRows<Record<string, unknown> & { site: string; sections: Tuples; groups: Tuples; siteSpaces: Tuples; spaces: Tuples }>(em, statement);
  return rows.map((row) => {
    const layout = {
      site: row.site,
      sections: rowsOf<Plain<SiteSectionRow>>(em, SiteSection, row.sections),
      groups: rowsOf<Plain<SiteSectionGroupRow>>(em, SiteSectionGroup, row.groups),
      siteSpaces: rowsOf<Plain<SiteSpaceRow>>(em, SiteSpace, row.siteSpaces),
      spaces: rowsOf<Plain<SpaceRow>>(em, Space, row.spaces),
    };
    const ids = layout.spaces.map((space) => space.id);
    facts.forEach((fact, i) => fact.remember(ids, row[`fact${i}`] as never));
    return layout;
  });
}
