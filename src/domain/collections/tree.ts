import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { tableOf } from '../../db/statements.js';
import { Collection } from './entities.js';

/** Ids of a collection and of every collection below it (through the index on the kept ancestors). */
export async function subtreeIds(em: EntityManager, rootId: string): Promise<string[]> {
  const statement = sql`select id from ${tableOf(em, Collection)} where id = ${rootId} or ancestors @> array[${rootId}]::text[]`;
  const rows = await em.execute<{ id: string }[]>(statement.sql, statement.values);
  return rows.map((row) => row.id);
}

/** True when `collectionId` is the collection `rootId` or one below it (one row read). */
export async function isInSubtree(em: EntityManager, collectionId: string, rootId: string): Promise<boolean> {
  if (collectionId === rootId) return true;
  const statement = sql`select ${rootId} = any(ancestors) as inside from ${tableOf(em, Collection)} where id = ${collectionId}`;
  const [row] = await em.execute<{ inside: boolean }[]>(statement.sql, statement.values);
  return !!row?.inside;
}
