import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Context } from '../../graphql/context.js';
import { plainQuery, tableOf, columnOf } from '../../db/plain-rows.js';
import { spaceContent } from '../content/service.js';
import { DEFAULT_READ, pageTree } from '../content/views.js';
import type { SpaceRow } from '../spaces/entities.js';
import { SearchIndexedSpace, SearchSection, type SearchSectionRow } from './entities.js';
import { sectionsOf } from './sections.js';

type SectionRow = Omit<SearchSectionRow, 'document'>;

/** The index rows of a space's main revision: every section of every page. */
async function sectionRows(ctx: Context, space: SpaceRow): Promise<SectionRow[]> {
  const tree = await pageTree(ctx, await spaceContent(ctx, space, DEFAULT_READ));
  return tree.all.flatMap((page) =>
    sectionsOf(page.version.title, page.version.markdown).map((section, position) => ({
      id: `${space.id}|${page.entry.page}|${position}`,
      organization: space.organization,
      space: space.id,
      page: page.entry.page,
      position,
      anchor: section.anchor,
      pageTitle: page.version.title,
      pagePath: page.entry.path,
      title: section.title,
      body: section.body,
    })),
  );
}

/**
 * Brings the index up to date for these spaces: a space whose main revision is not the indexed one
 * gets its rows rebuilt. Searching does this first, so the index follows merges, duplications and
 * transfers without each of them knowing about search. Rows are read before the transaction (PGlite
 * has one connection); inside it the space's index record is locked, so concurrent searches rebuild
 * a space once.
 */
export async function refreshIndex(ctx: Context, spaces: SpaceRow[]): Promise<void> {
  if (spaces.length === 0) return;
  const em = ctx.em;
  const indexed = await plainQuery<{ space: string; revision: string }>(
    em,
    `select ${columnOf(em, SearchIndexedSpace, 'space')} as "space", "revision" from ${tableOf(em, SearchIndexedSpace)} where ${columnOf(em, SearchIndexedSpace, 'space')} = any($1)`,
    [spaces.map((s) => s.id)],
  );
  const current = new Map(indexed.map((row) => [row.space, row.revision]));
  const stale = spaces.filter((space) => current.get(space.id) !== space.revision);
  for (const space of stale) {
    const rows = await sectionRows(ctx, space);
    await em.transactional(async (tx) => rebuild(tx as EntityManager, space, rows));
  }
}

async function rebuild(tx: EntityManager, space: SpaceRow, rows: SectionRow[]): Promise<void> {
  await tx
    .createQueryBuilder(SearchIndexedSpace)
    .insert({ space: space.id, organization: space.organization, revision: '' })
    .onConflict('space')
    .ignore()
    .execute();
  const record = await tx.findOneOrFail(SearchIndexedSpace, { space: space.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (record.revision === space.revision) return;
  await tx.nativeDelete(SearchSection, { space: space.id });
  if (rows.length) await tx.insertMany(SearchSection, rows);
  record.revision = space.revision;
  record.organization = space.organization;
}
