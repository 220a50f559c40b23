import { z } from 'zod';
import { atLeast } from '../../auth/roles.js';
import { columnOf, plainQuery, tableOf } from '../../db/plain-rows.js';
import type { Context } from '../../graphql/context.js';
import { paginateRows, type PageArgs } from '../../graphql/pagination.js';
import { parseInput, text } from '../../graphql/validation.js';
import type { SpaceRow } from '../spaces/entities.js';
import { SearchSection } from './entities.js';
import { refreshIndex } from './indexing.js';

/** At most this many best-ranked sections make up one search's answer (README). */
export const MAX_SEARCH_SECTIONS = 1000;

const SearchArgs = z.object({ query: text({ min: 1, max: 512 }) });

export type SectionHit = { id: string; space: string; page: string; anchor: string; pageTitle: string; pagePath: string; title: string; body: string; rank: number };
export type PageHit = { id: string; title: string; path: string; space: SpaceRow; rank: number; sections: SectionHit[] };
export type SpaceHit = { space: SpaceRow; rank: number; pages: PageHit[] };

/** Live spaces of the organization that the viewer can read. */
async function readableSpaces(ctx: Context, organizationId: string): Promise<SpaceRow[]> {
  const spaces = await ctx.loaders.spacesByOrganization.load(organizationId);
  const roles = await Promise.all(spaces.map((s) => ctx.policy.spaceRole(s)));
  return spaces.filter((_, i) => atLeast(roles[i] ?? null, 'read'));
}

async function matchingSections(ctx: Context, spaceIds: string[], query: string): Promise<SectionHit[]> {
  const em = ctx.em;
  const column = (property: string) => `s.${columnOf(em, SearchSection, property)}`;
  const sql = `with q as (select websearch_to_tsquery('english', $2) as query)
    select s."id", ${column('space')} as "space", s."page", s."anchor", ${column('pageTitle')} as "pageTitle", ${column('pagePath')} as "pagePath",
      s."title", s."body", ts_rank(s."document", q.query) as "rank"
    from ${tableOf(em, SearchSection)} s, q
    where ${column('space')} = any($1) and s."document" @@ q.query
    order by "rank" desc, s."id" limit $3`;
  const rows = await plainQuery<SectionHit>(em, sql, [spaceIds, query, MAX_SEARCH_SECTIONS]);
  return rows.map((row) => ({ ...row, rank: Number(row.rank) }));
}

/** Groups ranked sections by page and pages by space, each level ordered by its best section. */
function group(sections: SectionHit[], spaces: Map<string, SpaceRow>): SpaceHit[] {
  const bySpace = new Map<string, SpaceHit>();
  const byPage = new Map<string, PageHit>();
  // Sections arrive best first, so the first of a page or space sets its rank and place.
  for (const section of sections) {
    let spaceHit = bySpace.get(section.space);
    if (!spaceHit) bySpace.set(section.space, (spaceHit = { space: spaces.get(section.space)!, rank: section.rank, pages: [] }));
    const pageKey = `${section.space}|${section.page}`;
    let pageHit = byPage.get(pageKey);
    if (!pageHit) {
      pageHit = { id: section.page, title: section.pageTitle, path: section.pagePath, space: spaceHit.space, rank: section.rank, sections: [] };
      byPage.set(pageKey, pageHit);
      spaceHit.pages.push(pageHit);
    }
    pageHit.sections.push(section);
  }
  return [...bySpace.values()];
}

/**
 * Full-text search over the main content of the organization's spaces that the viewer can read:
 * spaces ranked by their best section, pages within a space likewise, sections by rank.
 */
export async function searchOrganization(ctx: Context, organizationId: string, args: { query: unknown } & PageArgs) {
  const { query } = parseInput(SearchArgs, { query: args.query });
  const spaces = await readableSpaces(ctx, organizationId);
  await refreshIndex(ctx, spaces);
  const sections = spaces.length ? await matchingSections(ctx, spaces.map((s) => s.id), query) : [];
  const hits = group(sections, new Map(spaces.map((s) => [s.id, s])));
  return paginateRows(hits, (hit) => [hit.rank, hit.space.id], args, 'desc');
}
