import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { DEFAULT_LEVELS } from '../../auth/roles.js';
import type { Context } from '../../graphql/context.js';
import { badRequest, forbidden, notFound } from '../../graphql/errors.js';
import { paginateRows, type PageArgs } from '../../graphql/pagination.js';
import { oneOf, parseInput, text } from '../../graphql/validation.js';
import { newId } from '../../ids.js';
import { softDeleteSpaces, moveTenantRows } from '../spaces/service.js';
import { removeAccessTo } from '../grants/service.js';
import { Space } from '../spaces/entities.js';
import { Collection, type CollectionRow } from './entities.js';
import { assertCanCreateIn, collectionInOrganization } from './placement.js';
import { positionIn, subtreeIds, type ContentPosition } from './tree.js';

const CreateCollectionInput = z.object({
  title: text({ max: 50 }).optional().nullable(),
  description: text({ max: 100 }).optional().nullable(),
  parent: z.string().optional().nullable(),
});

const UpdateCollectionInput = z.object({
  title: text({ max: 50 }).optional(),
  description: text({ max: 100 }).nullable().optional(),
  defaultLevel: oneOf(DEFAULT_LEVELS).nullable().optional(),
});

export async function createCollection(ctx: Context, organizationId: string, input: unknown): Promise<CollectionRow> {
  const fields = parseInput(CreateCollectionInput, input);
  const parent = fields.parent ? await collectionInOrganization(ctx, fields.parent, organizationId, 'parent') : null;
  await assertCanCreateIn(ctx, organizationId, parent?.id ?? null);
  const now = ctx.clock.now();
  const collection = ctx.em.create(Collection, {
    id: newId(),
    organization: organizationId,
    parent: parent?.id ?? null,
    title: fields.title || 'Untitled collection',
    description: fields.description ?? null,
    defaultLevel: 'inherit',
    position: await positionIn(ctx.em, organizationId, parent?.id ?? null, null),
    createdAt: now,
    updatedAt: now,
  });
  await ctx.em.flush();
  return collection;
}

export async function updateCollection(ctx: Context, id: string, input: unknown): Promise<CollectionRow> {
  const changes = parseInput(UpdateCollectionInput, input);
  const collection = (await ctx.loaders.collection.load(id))!;
  ctx.em.assign(collection, { ...changes, updatedAt: ctx.clock.now() });
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
    const all = await tx.find(Collection, { organization: collection.organization }, { fields: ['id', 'parent'] });
    const ids = [...subtreeIds(all as CollectionRow[], id)];
    const spaces = await tx.find(Space, { parent: { $in: ids }, deletedAt: null });
    softDeleteSpaces(tx as EntityManager, ctx.clock, spaces);
    await tx.flush();
    await tx.nativeDelete(Collection, { id }); // sub-collections follow through ON DELETE CASCADE
  });
}

export async function moveCollection(
  ctx: Context,
  id: string,
  input: { parent?: string | null; position?: ContentPosition | null },
): Promise<CollectionRow> {
  if (input.parent === undefined && !input.position) throw badRequest('parent or position is required');
  const collection = (await ctx.loaders.collection.load(id))!;
  let parentId = collection.parent ?? null;
  if (input.parent !== undefined) {
    parentId = input.parent;
    if (parentId) {
      await collectionInOrganization(ctx, parentId, collection.organization, 'parent');
      const all = await ctx.loaders.collectionsByOrganization.load(collection.organization);
      if (subtreeIds(all, id).has(parentId)) throw badRequest('parent: a collection cannot move into itself or one of its sub-collections');
    }
  }
  if (parentId !== (collection.parent ?? null)) await assertCanCreateIn(ctx, collection.organization, parentId);
  collection.position = await positionIn(ctx.em, collection.organization, parentId, input.position, id);
  collection.parent = parentId;
  collection.updatedAt = ctx.clock.now();
  await ctx.em.flush();
  return collection;
}

/** Moves a collection, its sub-collections and their spaces to the top level of another organization. */
export async function transferCollection(ctx: Context, id: string, input: { organization: string; collection?: string | null }): Promise<CollectionRow> {
  const collection = (await ctx.loaders.collection.load(id))!;
  const target = input.organization;
  if ((await ctx.policy.organizationRole(collection.organization)) !== 'admin') {
    throw forbidden('Transferring a collection needs the admin role in its organization');
  }
  if (!(await ctx.loaders.organization.load(target)) || !(await ctx.policy.isMember(target))) {
    throw notFound('Organization');
  }
  if ((await ctx.policy.organizationRole(target)) !== 'admin') {
    throw forbidden('Transferring a collection needs the admin role in the target organization');
  }
  const parent = input.collection ? await collectionInOrganization(ctx, input.collection, target, 'collection') : null;
  // Within one organization a transfer is a move, never into the collection's own subtree.
  if (target === collection.organization) {
    if (parent && subtreeIds(await ctx.loaders.collectionsByOrganization.load(target), id).has(parent.id)) {
      throw badRequest('collection: a collection cannot move into itself or one of its sub-collections');
    }
    return moveCollection(ctx, id, { parent: parent?.id ?? null });
  }
  await ctx.em.transactional(async (tx) => {
    const all = await tx.find(Collection, { organization: collection.organization }, { fields: ['id', 'parent'] });
    const ids = [...subtreeIds(all as CollectionRow[], id)];
    const spaceIds = (await tx.find(Space, { parent: { $in: ids } }, { fields: ['id'] })).map((s) => s.id);
    collection.position = await positionIn(tx as EntityManager, target, parent?.id ?? null, null, id);
    collection.parent = parent?.id ?? null;
    collection.updatedAt = ctx.clock.now();
    await tx.flush();
    await tx.nativeUpdate(Collection, { id: { $in: ids } }, { organization: target });
    await removeAccessTo(tx as EntityManager, { collections: ids });
    await moveTenantRows(tx as EntityManager, ctx.clock, spaceIds, target);
  });
  await ctx.em.refresh(collection);
  return collection;
}

/** Sort key of a collection in tree order: the positions along its path from the top level. */
function treeKey(collection: CollectionRow, byId: Map<string, CollectionRow>): string[] {
  const path: string[] = [];
  for (let c: CollectionRow | undefined = collection; c; c = c.parent ? byId.get(c.parent) : undefined) {
    path.unshift(c.position, c.id);
  }
  return path;
}

async function visible(ctx: Context, collections: CollectionRow[]): Promise<CollectionRow[]> {
  const roles = await Promise.all(collections.map((c) => ctx.policy.collectionRole(c)));
  return collections.filter((_, i) => roles[i] !== null);
}

/** Collections of an organization that the viewer can see, in tree order (depth first, by position). */
export async function listCollections(ctx: Context, organizationId: string, args: PageArgs & { nested?: boolean | null }) {
  const all = await ctx.loaders.collectionsByOrganization.load(organizationId);
  const byId = new Map(all.map((c) => [c.id, c]));
  const candidates = args.nested === false ? all.filter((c) => !c.parent) : all;
  return paginateRows(await visible(ctx, candidates), (c) => treeKey(c, byId), args);
}

/** Direct sub-collections of a collection that the viewer can see, by position. */
export async function listChildCollections(ctx: Context, collection: CollectionRow, args: PageArgs) {
  const all = await ctx.loaders.collectionsByOrganization.load(collection.organization);
  const rows = await visible(ctx, all.filter((c) => c.parent === collection.id));
  return paginateRows(rows, (c) => [c.position, c.id], args);
}
