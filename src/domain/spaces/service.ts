import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../kernel/clock.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, conflict } from '../../kernel/errors.js';
import { found } from '../../kernel/loader.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { CreateSpaceInput, UpdateSpaceInput } from './inputs.js';
import { newId } from '../../kernel/ids.js';
import { enqueue } from '../../jobs/queue.js';
import { contentLeaves, type AreaJobHandler } from '../../kernel/area.js';
import { requestVacuum } from '../../jobs/vacuum.js';
import { copyContent, Revision } from '../content/index.js';
import { MoveContentInput, positionIn } from '../collections/index.js';
import type { CollectionRow } from '../collections/index.js';
import { collectionInOrganization } from '../collections/index.js';
import { applyChanges } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { placementOf } from '../collections/index.js';
import { Space, type SpaceEntity, type SpaceRow } from './entities.js';
import { spacePayload, spaceTarget } from './events.js';
import { isPastRetention, purgeDate } from '../../kernel/retention.js';
import type { Shape } from '../../db/read-shapes.js';

const PURGE_JOB = 'space.purge';

/**
 * Re-homes every tenant-owned row of these spaces (the spaces included) in another organization. The
 * sites of the old organization stop publishing them, and its teams and members lose their grants.
 */
export async function moveTenantRows(em: EntityManager, { clock, areas }: Pick<Context, 'clock' | 'areas'>, spaceIds: string[], organizationId: string) {
  if (spaceIds.length === 0) return;
  await contentLeaves(areas, em, { spaces: spaceIds }, 'moved');
  await em.nativeUpdate(Space, { id: { $in: spaceIds } }, { organization: organizationId });
  for (const entity of areas.flatMap((area) => area.spaceOwned ?? []))
    await em.nativeUpdate(entity, { space: { $in: spaceIds } }, { organization: organizationId });
  await requestVacuum(em, clock); // every row updated left a dead one behind
}

/** Marks spaces deleted and schedules their purge when the restore window closes. */
export function softDeleteSpaces(em: EntityManager, clock: Clock, spaces: SpaceEntity[]) {
  const now = clock.now();
  for (const space of spaces) {
    space.deletedAt = now;
    enqueue(em, clock, PURGE_JOB, { spaceId: space.id, deletedAt: now.toISOString() }, purgeDate(now));
  }
}

/** Purges a space whose restore window has closed; a space restored (or deleted again) meanwhile is kept. */
export const purgeSpace: AreaJobHandler = async (em, payload, now, run) => {
  const space = await em.findOne(Space, { id: String(payload.spaceId) });
  if (!space?.deletedAt || space.deletedAt.toISOString() !== payload.deletedAt || !isPastRetention(space, now)) return;
  await contentLeaves(run.areas, em, { spaces: [space.id] }, 'purged'); // site defaults are handed on before the cascade removes its site spaces
  await em.nativeDelete(Space, { id: space.id }); // owned rows follow through ON DELETE CASCADE
  await requestVacuum(em, { now: () => now });
};

export const spaceJobHandlers = { [PURGE_JOB]: purgeSpace };

function newRevision(em: EntityManager, clock: Clock, space: { id: string; organization: string }) {
  return em.create(Revision, {
    id: newId(),
    organization: space.organization,
    space: space.id,
    parents: [],
    type: 'edits',
    tree: null,
    createdAt: clock.now(),
  });
}

function assertVisibilityFits(visibility: string, parentId: string | null | undefined) {
  if (visibility === 'in-collection' && !parentId) throw badRequest('visibility: "in-collection" is only for spaces in a collection');
}

/** The space's entity for a change (loaders hand out plain rows); a deleted space must be restored first. */
async function liveSpace(ctx: Context, id: string): Promise<SpaceEntity> {
  const space = await found(ctx.em.findOne(Space, { id }), 'Space');
  if (space.deletedAt) throw conflict('Space is deleted: restore it first');
  return space;
}

/** Creates a space; the guard's check `canCreateIn` asks for create where it goes. */
export async function createSpace(ctx: Context, organizationId: string, input: unknown): Promise<SpaceRow> {
  const fields = parseInput(CreateSpaceInput, input);
  const parent = fields.parent ? await collectionInOrganization(ctx, fields.parent, organizationId, 'parent') : null;
  const visibility = fields.visibility ?? 'private';
  assertVisibilityFits(visibility, parent?.id);
  const now = ctx.clock.now();
  const id = newId();
  // Only `em` inside: on the embedded database a query through the request's loaders would wait for this transaction.
  return ctx.em.transactional(async (tx) => {
    const em = tx;
    const position = await positionIn(em, organizationId, parent?.id ?? null, null);
    const revision = newRevision(em, ctx.clock, { id, organization: organizationId });
    const space = em.create(Space, {
      id,
      organization: organizationId,
      parent: parent?.id ?? null,
      title: fields.title || 'Untitled',
      emoji: fields.emoji ?? null,
      visibility,
      editMode: fields.editMode ?? 'live',
      defaultLevel: 'inherit',
      position,
      revision: revision.id,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    recordEvent(ctx, em, { type: 'space.created', organizationId, target: spaceTarget(space), payload: spacePayload(space) });
    return space;
  });
}

export async function updateSpace(ctx: Context, id: string, input: unknown): Promise<SpaceRow> {
  const changes = parseInput(UpdateSpaceInput, input);
  const space = await liveSpace(ctx, id);
  if (changes.visibility) assertVisibilityFits(changes.visibility, space.parent);
  const changed = applyChanges(space, changes, ctx.clock.now());
  if (changed.length)
    recordEvent(ctx, ctx.em, {
      type: 'space.updated',
      organizationId: space.organization,
      target: spaceTarget(space),
      payload: { ...spacePayload(space), changes: changed },
    });
  await ctx.em.flush();
  return space;
}

export async function deleteSpace(ctx: Context, id: string): Promise<void> {
  const space = await liveSpace(ctx, id);
  softDeleteSpaces(ctx.em, ctx.clock, [space]);
  recordEvent(ctx, ctx.em, { type: 'space.deleted', organizationId: space.organization, target: spaceTarget(space), payload: spacePayload(space) });
  await ctx.em.flush();
}

/** Brings back a space deleted less than 7 days ago (the guard already hides older ones). */
export async function restoreSpace(ctx: Context, id: string): Promise<SpaceRow> {
  const space = await found(ctx.em.findOne(Space, { id }), 'Space');
  if (!space.deletedAt) throw conflict('Space is not deleted');
  await ctx.em.transactional(async (tx) => {
    space.position = await positionIn(tx, space.organization, space.parent ?? null, null, space.id);
    space.deletedAt = null;
    if (!space.parent && space.visibility === 'in-collection') space.visibility = 'private';
    space.updatedAt = ctx.clock.now();
    recordEvent(ctx, tx, { type: 'space.restored', organizationId: space.organization, target: spaceTarget(space), payload: spacePayload(space) });
  });
  return space;
}

const COPY_SUFFIX = ' (copy)';

/**
 * The title of a copy: the original's with " (copy)", shortened so that the result stays within the
 * 50-character limit (counted in code points, like the validation) and still ends with the suffix.
 */
function copyTitle(title: string): string {
  const room = 50 - COPY_SUFFIX.length;
  const chars = Array.from(title);
  return (chars.length > room ? chars.slice(0, room).join('').trimEnd() : title) + COPY_SUFFIX;
}

/**
 * A copy under a new id, placed right after the original, with its main content (not its history or
 * change requests); the guard's check `canCreateInItsParent` asks for create where the copy goes.
 */
export async function duplicateSpace(ctx: Context, id: string): Promise<SpaceRow> {
  const source = await liveSpace(ctx, id);
  return ctx.em.transactional((tx) => copySpace(ctx, tx, source));
}

/**
 * duplicateSpace's copy of a live space, in the caller's transaction `em` (only `em` inside: a site
 * space's duplicate copies its space while it holds its site's lock), with its `space.created` event.
 */
export async function copySpace(ctx: Context, em: EntityManager, source: SpaceRow): Promise<SpaceRow> {
  const now = ctx.clock.now();
  const copyId = newId();
  const revision = await copyContent(em, source.revision, { space: copyId, organization: source.organization }, now);
  const position = await positionIn(em, source.organization, source.parent ?? null, { after: { type: 'space', space: source.id } });
  const copy = em.create(Space, {
    id: copyId,
    organization: source.organization,
    parent: source.parent ?? null,
    title: copyTitle(source.title),
    emoji: source.emoji,
    visibility: source.visibility,
    editMode: source.editMode,
    defaultLevel: source.defaultLevel,
    position,
    revision: revision.id,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  });
  for (const area of ctx.areas) await area.spaceContentChanged?.(em, ctx.clock, copy, true);
  recordEvent(ctx, em, {
    type: 'space.created',
    organizationId: copy.organization,
    target: { ...spaceTarget(copy), duplicatedFromSpaceId: source.id },
    payload: { ...spacePayload(copy), duplicatedFrom: source.id },
  });
  return copy;
}

/** Moves a space within its organization; the guard's check `canMoveInto` asks for create on a new parent. */
export async function moveSpace(ctx: Context, id: string, move: unknown): Promise<SpaceRow> {
  const input = parseInput(MoveContentInput, move);
  if (input.parent === undefined && !input.position) throw badRequest('parent or position is required');
  const space = await liveSpace(ctx, id);
  const parentId = input.parent === undefined ? (space.parent ?? null) : input.parent;
  if (parentId) await collectionInOrganization(ctx, parentId, space.organization, 'parent');
  await ctx.em.transactional(async (tx) => {
    const from = placementOf(space);
    space.position = await positionIn(tx, space.organization, parentId, input.position, id);
    space.parent = parentId;
    if (!parentId && space.visibility === 'in-collection') space.visibility = 'private';
    space.updatedAt = ctx.clock.now();
    recordEvent(ctx, tx, {
      type: 'space.moved',
      organizationId: space.organization,
      target: spaceTarget(space),
      payload: { ...spacePayload(space), from, to: placementOf(space) },
    });
  });
  return space;
}

/** Moves a space to another organization (top level, or one of its collections); the guard checks `adminOfBoth`. */
export async function transferSpace(ctx: Context, id: string, input: { organization: string; collection?: string | null }): Promise<SpaceRow> {
  const space = await liveSpace(ctx, id);
  const target = input.organization;
  const parent = input.collection ? await collectionInOrganization(ctx, input.collection, target, 'collection') : null;
  const leaving = target !== space.organization;
  await ctx.em.transactional(async (tx) => {
    const from = placementOf(space);
    space.position = await positionIn(tx, target, parent?.id ?? null, null, id);
    space.parent = parent?.id ?? null;
    if (!parent && space.visibility === 'in-collection') space.visibility = 'private';
    space.updatedAt = ctx.clock.now();
    const to = { ...placementOf(space), organization: target };
    const payload = { ...spacePayload({ ...space, organization: target }), from, to };
    // Within its organization a transfer is a move; else recorded in the organization it leaves, naming the one it joins.
    recordEvent(
      ctx,
      tx,
      leaving
        ? { type: 'space.transferred', organizationId: from.organization, target: { ...spaceTarget(space), toOrganizationId: target }, payload }
        : { type: 'space.moved', organizationId: from.organization, target: spaceTarget(space), payload },
    );
    await tx.flush();
    if (leaving) await moveTenantRows(tx, ctx, [id], target);
  });
  await ctx.em.refresh(space);
  return space;
}

/** Live spaces of an organization that the viewer can see, oldest first. */
export function listOrganizationSpaces(ctx: Context, organizationId: string, args: PageArgs, shape?: Shape) {
  return ctx.lists.spacesOfOrganization.load({ parent: organizationId, args, shape });
}

/** Live spaces directly in a collection that the viewer can see, by position. */
export function listCollectionSpaces(ctx: Context, collection: CollectionRow, args: PageArgs, shape?: Shape) {
  return ctx.lists.spacesOfCollection.load({ parent: collection, args, shape });
}
