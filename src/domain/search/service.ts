import { z } from 'zod';
import { visibleContent } from '../../auth/visibility.js';
import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import { decodeCursor, encodeCursor, pageSize, type Page, type PageArgs } from '../../kernel/pagination.js';
import { parseInput, text } from '../../kernel/validation.js';
import type { SpaceRow } from '../spaces/index.js';
import { refreshStaleSpaces } from './indexing.js';
import { rankedPage, type SectionHit } from './ranking.js';

export type { SectionHit } from './ranking.js';

const SearchArgs = z.object({ query: text({ min: 1, max: 512 }) });

export type PageHit = { id: string; title: string; path: string; space: SpaceRow; rank: number; sections: SectionHit[] };
export type SpaceHit = { space: SpaceRow; rank: number; pages: PageHit[] };

/** Groups a page's sections (best first) by page, under the page's spaces in their order. */
function group(sections: SectionHit[], spaces: { space: SpaceRow; rank: number }[]): SpaceHit[] {
  const bySpace = new Map(spaces.map(({ space, rank }) => [space.id, { space, rank, pages: [] as PageHit[] }]));
  const byPage = new Map<string, PageHit>();
  // Sections arrive best first, so the first of a page sets its rank and place.
  for (const section of sections) {
    const spaceHit = bySpace.get(section.space);
    if (!spaceHit) continue;
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

function cursorOf(page: string): { rank: number; space: string } {
  const [rank, space, ...rest] = decodeCursor(page);
  if (typeof rank !== 'number' || typeof space !== 'string' || rest.length) throw badRequest('page: not a page identifier returned by this list');
  return { rank, space };
}

/**
 * Full-text search over the main content of the organization's spaces that the viewer can read:
 * spaces ranked by their best section, pages within a space likewise, sections by rank. The index is
 * brought up to date first (stale spaces only), then one statement ranks the bounded candidates and
 * answers the page (keyset on rank and space id), its count and its sections.
 */
export async function searchOrganization(ctx: Context, organizationId: string, args: { query: unknown } & PageArgs): Promise<Page<SpaceHit>> {
  const { query } = parseInput(SearchArgs, { query: args.query });
  const limit = pageSize(args.limit);
  const after = args.page ? cursorOf(args.page) : null;
  await refreshStaleSpaces(ctx.em, organizationId);
  const reach = await ctx.policy.contentReach([organizationId]);
  const readable = reach.everything.includes(organizationId) ? null : visibleContent(reach, 'space', 'sp');
  const answer = await rankedPage(ctx.em, { organizationId, query, readable }, after, limit);
  const onPage = answer.spaces.slice(0, limit);
  const rows = await ctx.loaders.space.loadMany(onPage.map((s) => s.space));
  // A space purged since the statement is left out.
  const spaces = onPage.flatMap((s, i) => (rows[i] && !(rows[i] instanceof Error) ? [{ space: rows[i], rank: s.rank }] : []));
  const last = onPage[onPage.length - 1];
  return {
    items: group(answer.sections, spaces),
    count: answer.count,
    next: answer.spaces.length > limit && last ? { page: encodeCursor([last.rank, last.space]) } : null,
  };
}
