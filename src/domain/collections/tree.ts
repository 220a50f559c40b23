import type { EntityManager } from '@mikro-orm/postgresql';
import { tableOf } from '../../db/plain-rows.js';
import { badRequest } from '../../graphql/errors.js';
import { byPosition, placeAmong } from '../ordering.js';
import { Space } from '../spaces/entities.js';
import { Collection } from './entities.js';

/** A sibling reference of the contract's position object. */
export type ContentPointer = { type: string; space?: string | null; collection?: string | null };
export type ContentPosition = { before?: ContentPointer | null; after?: ContentPointer | null };

type Sibling = { id: string; position: string; type: 'collection' | 'space' };

/** Collections and live spaces directly under `parentId` (null: top level), in position order. */
async function siblingsOf(em: EntityManager, organizationId: string, parentId: string | null, excludeId?: string): Promise<Sibling[]> {
  const where = { organization: organizationId, parent: parentId, ...(excludeId ? { id: { $ne: excludeId } } : {}) };
  const [collections, spaces] = await Promise.all([
    em.find(Collection, where, { fields: ['id', 'position'] }),
    em.find(Space, { ...where, deletedAt: null }, { fields: ['id', 'position'] }),
  ]);
  return [
    ...collections.map((row) => ({ id: row.id, position: row.position, type: 'collection' as const })),
    ...spaces.map((row) => ({ id: row.id, position: row.position, type: 'space' as const })),
  ]
    .sort(byPosition);
}

function pointerId(pointer: ContentPointer, field: string): string {
  const id = pointer.type === 'space' ? pointer.space : pointer.type === 'collection' ? pointer.collection : undefined;
  if (pointer.type !== 'space' && pointer.type !== 'collection') throw badRequest(`${field}.type: must be "space" or "collection"`);
  if (!id) throw badRequest(`${field}.${pointer.type}: is required`);
  return id;
}

/**
 * The ordering key for an item placed under `parentId`: at the end by default, or just before / after
 * a sibling named by the position object.
 */
export async function positionIn(
  em: EntityManager,
  organizationId: string,
  parentId: string | null,
  position: ContentPosition | null | undefined,
  movingId?: string,
): Promise<string> {
  const siblings = await siblingsOf(em, organizationId, parentId, movingId);
  const sibling = (pointer: ContentPointer | null | undefined, field: string) => {
    if (!pointer) return undefined;
    const id = pointerId(pointer, field);
    if (id === movingId || !siblings.some((s) => s.id === id && s.type === pointer.type)) {
      throw badRequest(`${field}: ${pointer.type} "${id}" is not a sibling in the target parent`);
    }
    return id;
  };
  return placeAmong(siblings, { before: sibling(position?.before, 'position.before'), after: sibling(position?.after, 'position.after') });
}

/** Ids of a collection and of every collection below it (through the index on the kept ancestors). */
export async function subtreeIds(em: EntityManager, rootId: string): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(`select id from ${tableOf(em, Collection)} where id = ? or ancestors @> array[?]::text[]`, [rootId, rootId]);
  return rows.map((row) => row.id);
}

/** True when `collectionId` is the collection `rootId` or one below it (one row read). */
export async function isInSubtree(em: EntityManager, collectionId: string, rootId: string): Promise<boolean> {
  if (collectionId === rootId) return true;
  const [row] = await em.execute<{ inside: boolean }[]>(`select ? = any(ancestors) as inside from ${tableOf(em, Collection)} where id = ?`, [rootId, collectionId]);
  return !!row?.inside;
}
