import type { EntityManager } from '@mikro-orm/postgresql';
import { tableOf } from '../../db/statements.js';
import { Collection } from './entities.js';

/** Ids of a collection and of every collection below it (through the index on the kept ancestors). */
export async function subtreeIds(em: EntityManager, rootId: string): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(`select id from ${tableOf(em, Collection)} where id = ? or ancestors @> array[?]::text[]`, [rootId, rootId]);
  return rows.map((row) => row.id);
}

/** True when `collectionId` is the collection `rootId` or one below it (one row read). */
export async function isInSubtree(em: EntityManager, collectionId: string, rootId: string): Promise<boolean> {
  if (collectionId === rootId) return true;
  const [row] = await em.execute<{ inside: boolean }[]>(`select ? = any(ancestors) as inside from ${tableOf(em, Collection)} where id = ?`, [
    rootId,
    collectionId,
  ]);
  return !!row?.inside;
}
