import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { type Sql } from 'sql-template-tag';
import { readRows, tableOf } from '../../db/statements.js';
import { Loader, rowLoader } from '../../kernel/loader.js';
import { ChangeRequest } from './entities.js';

export type ChangeRequestCounts = { total: number; open: number; draft: number };

/** `spaceId|number`: a change request by its number in a space. */
export const numberKey = (spaceId: string, number: number) => `${spaceId}|${number}`;

type CountRow = { space: string; status: string; n: string | number };

/**
 * The one statement of change-request counts: rows `space`, `status`, `n` for the spaces whose ids the
 * array expression `spaceIds` holds (a parameter, or a column of the site layout's statement), joined
 * to its `unnest` for the reason the layout gives (sites/published/layout.ts).
 */
const countsOfSpaces = (em: EntityManager, spaceIds: Sql) =>
  sql`select cr.space_id as "space", cr.status, count(*) as n from unnest(${spaceIds}::text[]) as s(id) join ${tableOf(em, ChangeRequest)} cr on cr.space_id = s.id group by cr.space_id, cr.status`;

function countsBySpace(rows: readonly CountRow[]): Map<string, ChangeRequestCounts> {
  const counts = new Map<string, ChangeRequestCounts>();
  for (const row of rows) {
    const entry = counts.get(row.space) ?? { total: 0, open: 0, draft: 0 };
    const n = Number(row.n);
    entry.total += n;
    if (row.status === 'open') entry.open += n;
    if (row.status === 'draft') entry.draft += n;
    counts.set(row.space, entry);
  }
  return counts;
}

export function changeRequestLoaders(em: EntityManager) {
  const changeRequestCounts = new Loader<string, ChangeRequestCounts>(async (spaceIds) => {
    const rows = await readRows<CountRow>(em, countsOfSpaces(em, sql`${[...new Set(spaceIds)]}`));
    const counts = countsBySpace(rows);
    return spaceIds.map((id) => counts.get(id) ?? { total: 0, open: 0, draft: 0 });
  });
  return {
    changeRequest: rowLoader(
      (ids: string[]) => em.find(ChangeRequest, { id: { $in: ids } }),
      (c) => c.id,
    ),
    changeRequestByNumber: rowLoader(
      (keys: string[]) =>
        em.find(ChangeRequest, {
          $or: keys.map((key) => {
            const [space, number] = key.split('|');
            return { space: space, number: Number(number) };
          }),
        }),
      (c) => numberKey(c.space, c.number),
    ),
    /** How many change requests each space has (all, open, draft), in one grouped statement for all spaces. */
    changeRequestCounts,
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof changeRequestLoaders> {}
}
