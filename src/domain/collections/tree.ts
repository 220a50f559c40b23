import type { EntityManager } from '@mikro-orm/postgresql';
import { generateKeyBetween } from 'fractional-indexing';
import { badRequest, conflict } from '../../graphql/errors.js';
import { Space } from '../spaces/entities.js';
import { Collection, type CollectionRow } from './entities.js';

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
    .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
}

function pointerId(pointer: ContentPointer, field: string): string {
  const id = pointer.type === 'space' ? pointer.space : pointer.type === 'collection' ? pointer.collection : undefined;
  if (pointer.type !== 'space' && pointer.type !== 'collection') throw badRequest(`${field}.type: must be "space" or "collection"`);
  if (!id) throw badRequest(`${field}.${pointer.type}: is required`);
  return id;
}

function between(a: string | null, b: string | null): string {
  try {
    return generateKeyBetween(a, b);
  } catch {
    throw conflict('position: the siblings were reordered concurrently; try again');
  }
}

/**
 * The ordering key for an item placed under `parentId`: at the end by default, or just before / after
 * a sibling named by the position object. Keys are fractional, so no other row is renumbered.
 */
export async function positionIn(
  em: EntityManager,
  organizationId: string,
  parentId: string | null,
  position: ContentPosition | null | undefined,
  movingId?: string,
): Promise<string> {
  const siblings = await siblingsOf(em, organizationId, parentId, movingId);
  const indexOf = (pointer: ContentPointer, field: string) => {
    const id = pointerId(pointer, field);
    const index = siblings.findIndex((s) => s.id === id && s.type === pointer.type);
    if (index < 0 || id === movingId) throw badRequest(`${field}: ${pointer.type} "${id}" is not a sibling in the target parent`);
    return index;
  };
  if (position?.before && position?.after) {
    const after = indexOf(position.after, 'position.after');
    const before = indexOf(position.before, 'position.before');
    if (before !== after + 1) throw badRequest('position: "after" and "before" must be adjacent siblings, in that order');
    return between(siblings[after]!.position, siblings[before]!.position);
  }
  if (position?.before) {
    const index = indexOf(position.before, 'position.before');
    return between(siblings[index - 1]?.position ?? null, siblings[index]!.position);
  }
  if (position?.after) {
    const index = indexOf(position.after, 'position.after');
    return between(siblings[index]!.position, siblings[index + 1]?.position ?? null);
  }
  return between(siblings[siblings.length - 1]?.position ?? null, null);
}

/** Ids of a collection and of every collection below it. */
export function subtreeIds(all: CollectionRow[], rootId: string): Set<string> {
  const ids = new Set([rootId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const c of all) {
      if (c.parent && ids.has(c.parent) && !ids.has(c.id)) {
        ids.add(c.id);
        grew = true;
      }
    }
  }
  return ids;
}
