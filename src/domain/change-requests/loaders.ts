import type { EntityManager } from '@mikro-orm/postgresql';
import { plainQuery, tableOf } from '../../db/plain-rows.js';
import { groupLoader, Loader, rowLoader } from '../../graphql/loader.js';
import { ChangeRequest } from './entities.js';

export type ChangeRequestCounts = { total: number; open: number; draft: number };

/** `spaceId|number`: a change request by its number in a space. */
export const numberKey = (spaceId: string, number: number) => `${spaceId}|${number}`;

export function changeRequestLoaders(em: EntityManager) {
  return {
    changeRequest: rowLoader((ids: string[]) => em.find(ChangeRequest, { id: { $in: ids } }), (c) => c.id),
    changeRequestByNumber: rowLoader(
      (keys: string[]) =>
        em.find(ChangeRequest, {
          $or: keys.map((key) => {
            const [space, number] = key.split('|');
            return { space: space!, number: Number(number) };
          }),
        }),
      (c) => numberKey(c.space, c.number),
    ),
    /** Change requests of each space, newest first. */
    changeRequestsBySpace: groupLoader(
      (spaceIds: string[]) => em.find(ChangeRequest, { space: { $in: spaceIds } }, { orderBy: { number: 'desc' } }),
      (c) => c.space,
    ),
    /** How many change requests each space has (all, open, draft), in one grouped statement for all spaces. */
    changeRequestCounts: new Loader<string, ChangeRequestCounts>(async (spaceIds) => {
      const rows = await plainQuery<{ space: string; status: string; n: string | number }>(
        em,
        `select space_id as "space", status, count(*) as n from ${tableOf(em, ChangeRequest)} where space_id = any($1) group by space_id, status`,
        [[...new Set(spaceIds)]],
      );
      const counts = new Map<string, ChangeRequestCounts>();
      for (const row of rows) {
        const entry = counts.get(row.space) ?? { total: 0, open: 0, draft: 0 };
        const n = Number(row.n);
        entry.total += n;
        if (row.status === 'open') entry.open += n;
        if (row.status === 'draft') entry.draft += n;
        counts.set(row.space, entry);
      }
      return spaceIds.map((id) => counts.get(id) ?? { total: 0, open: 0, draft: 0 });
    }),
  };
}
