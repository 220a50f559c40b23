import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { empty } from 'sql-template-tag';
import type { Clock } from '../../kernel/clock.js';
import { rowsWhereIn, queryIn } from '../../db/statements.js';
import { enqueue, type JobHandler } from '../../jobs/queue.js';
import { PageVersion, type PageVersionRow } from '../content/index.js';
import { readRevisions } from '../content/index.js';
import { SearchIndexedSpace, SearchSection, type SearchSectionRow } from './entities.js';
import { sectionsOf } from './sections.js';

/*
 * The index follows each space's main revision. Whatever changes it (a merge, a duplicate) calls
 * `scheduleIndexing` in the same unit of work: the space is marked stale and a job rebuilds its rows.
 * A search first rebuilds the stale spaces of its organization that the job has not reached yet (in
 * the usual case none: one statement on a partial index, no space read), so it always answers the
 * current main content.
 */

const INDEX_JOB = 'search.index';

type SectionRow = Omit<SearchSectionRow, 'document' | 'heading'>;
type IndexedSpace = { id: string; organization: string; revision: string };

/**
 * Marks a space's index stale and schedules its rebuild, with the change of its main revision. A
 * space `created` in this unit of work gets its index record with it; otherwise the record is
 * upserted at once (the caller is in the change's transaction).
 */
export async function scheduleIndexing(em: EntityManager, clock: Clock, space: { id: string; organization: string }, created = false): Promise<void> {
  if (created) em.create(SearchIndexedSpace, { space: space.id, organization: space.organization, revision: '', stale: true });
  else {
    await queryIn(
      em,
      sql`insert into "search_indexed_space" ("space_id", "organization_id", "revision", "stale") values (${space.id}, ${space.organization}, '', true)
       on conflict ("space_id") do update set "stale" = true`,
    );
  }
  enqueue(em, clock, INDEX_JOB, { spaceId: space.id });
}

/** The index rows of a space's main revision: every section of every page, in tree order. */
async function sectionRows(em: EntityManager, space: IndexedSpace): Promise<SectionRow[]> {
  const [revision] = (await readRevisions(em, [space.revision])).revisions;
  if (!revision) return [];
  const versions = new Map(
    (
      await rowsWhereIn<PageVersionRow>(
        em,
        PageVersion,
        'key',
        revision.pages.map((p) => p.version),
      )
    ).map((v) => [v.key, v]),
  );
  // Pages come in tree order, so a page's parent is seen (with its own line of titles) before it.
  const lineage = new Map<string, string[]>();
  return revision.pages.flatMap((entry) => {
    const version = versions.get(entry.version)!;
    const pageAncestors = entry.parent ? (lineage.get(entry.parent) ?? []) : [];
    lineage.set(entry.page, [...pageAncestors, version.title]);
    return sectionsOf(version.title, version.markdown).map((section, position) => ({
      id: `${space.id}|${entry.page}|${position}`,
      organization: space.organization,
      space: space.id,
      page: entry.page,
      position,
      anchor: section.anchor,
      pageTitle: version.title,
      pagePath: entry.path,
      pageDescription: version.description ?? '',
      pageAncestors,
      title: section.title,
      body: section.body,
    }));
  });
}

const currentSpace = async (em: EntityManager, id: string) =>
  (await queryIn<IndexedSpace>(em, sql`select "id", "organization_id" as "organization", "revision" from "space" where "id" = ${id}`))[0];

/**
 * Rebuilds a stale space's rows. They are read and parsed before the transaction (PGlite has one
 * connection); inside it the index record is locked, so concurrent rebuilds (a search and the job)
 * take turns and the second finds nothing to do, and a revision that moved meanwhile is built again.
 */
export async function indexSpace(em: EntityManager, spaceId: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const space = await currentSpace(em, spaceId);
    if (!space) return;
    const rows = await sectionRows(em, space);
    const done = await em.transactional(async (trx) => {
      const tx = trx;
      const record = await tx.findOne(SearchIndexedSpace, { space: spaceId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!record?.stale) return true;
      if ((await currentSpace(tx, spaceId))?.revision !== space.revision) return false;
      await tx.nativeDelete(SearchSection, { space: spaceId });
      if (rows.length) await tx.insertMany(SearchSection, rows);
      Object.assign(record, { revision: space.revision, organization: space.organization, stale: false });
      return true;
    });
    if (done) return;
  }
}

/** Rebuilds the organization's stale spaces, or those of `spaces` (none, usually: then this reads no space). */
export async function refreshStaleSpaces(em: EntityManager, organizationId: string, spaces?: readonly string[]): Promise<void> {
  const ofSpaces = spaces ? sql`and "space_id" = any(${spaces}::text[])` : empty;
  const stale = await queryIn<{ space: string }>(
    em,
    sql`select "space_id" as "space" from "search_indexed_space" where "organization_id" = ${organizationId} and "stale" ${ofSpaces}`,
  );
  for (const { space } of stale) await indexSpace(em, space);
}

/** The job scheduled with a change of a space's main content. */
const indexJob: JobHandler = Object.assign(async (em: EntityManager, payload: Record<string, unknown>) => indexSpace(em, String(payload.spaceId)), {
  outsideTransaction: true,
});

export const searchJobHandlers = { [INDEX_JOB]: indexJob };
