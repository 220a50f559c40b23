import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { newId } from '../../kernel/ids.js';
import { softDeleteSpaces, moveTenantRows } from '../spaces/index.js';
import { Space } from '../spaces/index.js';
import { applyChanges } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { Collection, type CollectionRow } from './entities.js';
import { collectionPayload, collectionTarget, placementOf } from './events.js';
import { collectionInOrganization } from './placement.js';
import { positionIn } from './positions.js';
import { CreateCollectionInput, MoveContentInput, UpdateCollectionInput } from './inputs.js';
import { contentLeaves } from '../../kernel/area.js';
import { isInSubtree, subtreeIds } from './tree.js';
import type { Shape } from '../../db/read-shapes.js';

/** Creates a collection; the guard's check `canCreateIn` asks for create where it goes. */
export async function createCollection(ctx: Context, organizationId: string, input: unknown): Promise<CollectionRow> {
  const fields = parseInput(CreateCollectionInput, input);
  const parent = fields.parent ? await collectionInOrganization(ctx, fields.parent, organizationId, 'parent') : null;
  const now = ctx.clock.now();
  // Only `em` inside: on the embedded database a query through the request's loaders would wait for this transaction.
  return ctx.em.transactional(async (tx) => {
    const em = tx;
    const collection = em.create(Collection, {
      id: newId(),
      organization: organizationId,
      parent: parent?.id ?? null,
      title: fields.title || 'Untitled collection',
      description: fields.description ?? null,
      defaultLevel: 'inherit',
      position: await positionIn(em, organizationId, parent?.id ?? null, null),
      createdAt: now,
      updatedAt: now,
    });
    recordEvent(ctx, em, { type: 'collection.created', organizationId, target: collectionTarget(collection), payload: collectionPayload(collection) });
    return collection;
  });
}

export async function updateCollection(ctx: Context, id: string, input: unknown): Promise<CollectionRow> {
  const changes = parseInput(UpdateCollectionInput, input);
  const collection = (await ctx.loaders.collection.load(id))!;
  const changed = applyChanges(collection, changes, ctx.clock.now());
  if (changed.length) {
    recordEvent(ctx, ctx.em, {
      type: 'collection.updated',
      organizationId: collection.organization,
      target: collectionTarget(collection),
      payload: { ...collectionPayload(collection), changes: changed },
    });
  }
  await ctx.em.flush();
  return collection;
}

/**
 * Deletes a collection with its sub-collections. The spaces they hold are soft-deleted like a deleted
 * space (restorable for 7 days, then purged); a restored space comes back at the top level.
 */
export async function deleteCollection(ctx: Context, id: string): Promise<void> {
  const collection = (await ctx.loaders.collection.load(id))!;
  await ctx.em.transactional(async (tx) => {
    const ids = await subtreeIds(tx, id);
    const spaces = await tx.find(Space, { parent: { $in: ids }, deletedAt: null });
    softDeleteSpaces(tx, ctx.clock, spaces);
    // One event for the subtree: what went with the collection is named in it.
    const payload = { ...collectionPayload(collection), collections: ids.filter((c) => c !== id), spaces: spaces.map((s) => s.id) };
    recordEvent(ctx, tx, { type: 'collection.deleted', organizationId: collection.organization, target: collectionTarget(collection), payload });
    await tx.flush();
    await tx.nativeDelete(Collection, { id }); // sub-collections follow through ON DELETE CASCADE
  });
}

/** Moves a collection within its organization; the guard's check `canMoveInto` asks for create on a new parent. */
export async function moveCollection(ctx: Context, id: string, move: unknown): Promise<CollectionRow> {
  const input = parseInput(MoveContentInput, move);
  if (input.parent === undefined && !input.position) throw badRequest('parent or position is required');
  const collection = (await ctx.loaders.collection.load(id))!;
  let parentId = collection.parent ?? null;
  if (input.parent !== undefined) {
    parentId = input.parent;
    if (parentId) {
      await collectionInOrganization(ctx, parentId, collection.organization, 'parent');
      if (await isInSubtree(ctx.em, parentId, id)) throw badRequest('parent: a collection cannot move into itself or one of its sub-collections');
    }
  }
  await ctx.em.transactional(async (tx) => {
    const from = placementOf(collection);
    collection.position = await positionIn(tx, collection.organization, parentId, input.position, id);
    collection.parent = parentId;
    collection.updatedAt = ctx.clock.now();
    const payload = { ...collectionPayload(collection), from, to: placementOf(collection) };
    recordEvent(ctx, tx, { type: 'collection.moved', organizationId: collection.organization, target: collectionTarget(collection), payload });
  });
  return collection;
}

/**
 * Moves a collection, its sub-collections and their spaces to the top level of another organization;
 * the guard checks `adminOfBoth`.
 */
export async function transferCollection(ctx: Context, id: string, input: { organization: string; collection?: string | null }): Promise<CollectionRow> {
  const collection = (await ctx.loaders.collection.load(id))!;
  const target = input.organization;
  const parent = input.collection ? await collectionInOrganization(ctx, input.collection, target, 'collection') : null;
  // Within one organization a transfer is a move, never into the collection's own subtree.
  if (target === collection.organization) {
    if (parent && (await isInSubtree(ctx.em, parent.id, id))) {
      throw badRequest('collection: a collection cannot move into itself or one of its sub-collections');
    }
    return moveCollection(ctx, id, { parent: parent?.id ?? null });
  }
  await ctx.em.transactional(async (tx) => {
    const ids = await subtreeIds(tx, id);
    const spaceIds = (await tx.find(Space, { parent: { $in: ids } }, { fields: ['id'] })).map((s) => s.id);
    const from = placementOf(collection);
    collection.position = await positionIn(tx, target, parent?.id ?? null, null, id);
    collection.parent = parent?.id ?? null;
    collection.updatedAt = ctx.clock.now();
    // Recorded in the organization it leaves, naming the one it joins (a target, so both find it).
    const to = { ...placementOf(collection), organization: target };
    const payload = { ...collectionPayload({ ...collection, organization: target }), from, to, collections: ids.filter((c) => c !== id), spaces: spaceIds };
    recordEvent(ctx, tx, {
      type: 'collection.transferred',
      organizationId: from.organization,
      target: { ...collectionTarget(collection), toOrganizationId: target },
      payload,
    });
    await tx.flush();
    await tx.nativeUpdate(Collection, { id: { $in: ids } }, { organization: target });
    await contentLeaves(ctx.areas, tx, { collections: ids }, 'moved');
    await moveTenantRows(tx, ctx, spaceIds, target);
  });
  await ctx.em.refresh(collection);
  return collection;
}

/**
 * Collections of an organization that the viewer can see, in tree order (depth first, by position), or
 * only the top level with `nested: false`.
 */
export function listCollections(ctx: Context, organizationId: string, args: PageArgs & { nested?: boolean | null }, shape?: Shape) {
  const { nested, ...page } = args;
  const list = nested === false ? ctx.lists.topCollectionsOfOrganization : ctx.lists.collectionsOfOrganization;
  return list.load({ parent: organizationId, args: page, shape });
}

/** Direct sub-collections of a collection that the viewer can see, by position. */
export function listChildCollections(ctx: Context, collection: CollectionRow, args: PageArgs, shape?: Shape) {
  return ctx.lists.collectionsOfCollection.load({ parent: collection, args, shape });
}
