import { z } from 'zod';
import { visibleContent } from '../../auth/visibility.js';
import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import { decodeCursor, encodeCursor, pageSize, type Page, type PageArgs } from '../../kernel/pagination.js';
import { parseInput, text } from '../../kernel/validation.js';
import type { SpaceRow } from '../spaces/index.js';
import { refreshStaleSpaces } from './indexing.js';
import { rankedPage, rankedPagesPage, type RankedPageRow, type Search, type SectionHit } from './ranking.js';
import { siteSearchSpaces } from './site-scope.js';

export type { SectionHit } from './ranking.js';

const SearchArgs = z.object({ query: text({ min: 1, max: 512 }) });

/** A page found: its fields, its score (its best section's rank), its place among all the answer's pages, its sections best first. */
export type PageHit = Omit<RankedPageRow, 'page' | 'space'> & { id: string; space: SpaceRow; sections: SectionHit[] };
export type SpaceHit = { space: SpaceRow; score: number; pages: PageHit[] };

/** The answer's pages, in their order, each with its sections (which arrive best first). */
function pageHits(pages: RankedPageRow[], sections: SectionHit[], spaces: Map<string, SpaceRow>): PageHit[] {
  const byPage = new Map<string, PageHit>();
  for (const { page, space: spaceId, ...row } of pages) {
    const space = spaces.get(spaceId);
    if (space) byPage.set(`${spaceId}|${page}`, { ...row, id: page, space, sections: [] });
  }
  for (const section of sections) byPage.get(`${section.space}|${section.page}`)?.sections.push(section);
  return [...byPage.values()];
}

/** Groups the pages (in their order) under their spaces, in the spaces' order. */
function group(pages: PageHit[], spaces: { space: SpaceRow; score: number }[]): SpaceHit[] {
  const bySpace = new Map(spaces.map(({ space, score }) => [space.id, { space, score, pages: [] as PageHit[] }]));
  for (const page of pages) bySpace.get(page.space.id)?.pages.push(page);
  return [...bySpace.values()];
}

/** Loads the spaces named, leaving out any purged since the statement. */
async function spacesById(ctx: Context, ids: string[]): Promise<Map<string, SpaceRow>> {
  const rows = await ctx.loaders.space.loadMany(ids);
  return new Map(rows.flatMap((row): [string, SpaceRow][] => (row && !(row instanceof Error) ? [[row.id, row]] : [])));
}

function cursorOf(page: string): [number, string] {
  const [score, id, ...rest] = decodeCursor(page);
  if (typeof score !== 'number' || typeof id !== 'string' || rest.length) throw badRequest('page: not a page identifier returned by this list');
  return [score, id];
}

/** A page of spaces found by `search` (brought up to date first), each with its pages and sections. */
async function searchSpaces(ctx: Context, search: Search, args: PageArgs): Promise<Page<SpaceHit>> {
  const limit = pageSize(args.limit);
  const after = args.page ? cursorOf(args.page) : null;
  await refreshStaleSpaces(ctx.em, search.organizationId, search.spaces);
  const answer = await rankedPage(ctx.em, search, after && { rank: after[0], space: after[1] }, limit);
  const onPage = answer.spaces.slice(0, limit);
  const spaces = await spacesById(
    ctx,
    onPage.map((s) => s.space),
  );
  const last = onPage[onPage.length - 1];
  return {
    items: group(
      pageHits(answer.pages, answer.sections, spaces),
      onPage.flatMap((s) => (spaces.has(s.space) ? [{ space: spaces.get(s.space)!, score: s.rank }] : [])),
    ),
    count: answer.count,
    next: answer.spaces.length > limit && last ? { page: encodeCursor([last.rank, last.space]) } : null,
  };
}

/**
 * Full-text search over the main content of the organization's spaces that the viewer can read:
 * spaces ranked by their best section, pages within a space likewise, sections by rank. The index is
 * brought up to date first (stale spaces only), then one statement ranks the bounded candidates and
 * answers the page (keyset on rank and space id), its count and its pages and sections.
 */
export async function searchOrganization(ctx: Context, organizationId: string, args: { query: unknown } & PageArgs): Promise<Page<SpaceHit>> {
  const { query } = parseInput(SearchArgs, { query: args.query });
  const reach = await ctx.policy.contentReach([organizationId]);
  const readable = reach.everything.includes(organizationId) ? null : visibleContent(reach, 'space', 'sp');
  return searchSpaces(ctx, { organizationId, query, readable }, args);
}

/** The same search over the spaces a site publishes, in the scope its input asks (see site-scope.ts); its readers may search it all. */
export async function searchSite(ctx: Context, siteId: string, input: unknown, args: PageArgs): Promise<Page<SpaceHit>> {
  const { query } = parseInput(SearchArgs, { query: (input as { query?: unknown } | null)?.query });
  const site = await ctx.loaders.site.load(siteId);
  const spaces = await siteSearchSpaces(ctx, site!, input);
  return searchSpaces(ctx, { organizationId: site!.organization, query, readable: null, spaces }, args);
}

/** Full-text search over one space's main content (its readers): its pages, best first, paged by keyset on score and best section. */
export async function searchSpace(ctx: Context, spaceId: string, args: { query: unknown } & PageArgs): Promise<Page<PageHit>> {
  const { query } = parseInput(SearchArgs, { query: args.query });
  const limit = pageSize(args.limit);
  const after = args.page ? cursorOf(args.page) : null;
  const space = (await ctx.loaders.space.load(spaceId))!;
  await refreshStaleSpaces(ctx.em, space.organization, [space.id]);
  const search = { organizationId: space.organization, query, readable: null, spaces: [space.id] };
  const answer = await rankedPagesPage(ctx.em, search, after && { score: after[0], best: after[1] }, limit);
  const pages = pageHits(answer.pages, answer.sections, new Map([[space.id, space]]));
  const onPage = pages.slice(0, limit);
  const last = onPage[onPage.length - 1];
  return { items: onPage, count: answer.count, next: pages.length > limit && last ? { page: encodeCursor([last.score, last.best]) } : null };
}
