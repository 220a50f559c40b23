import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { empty } from 'sql-template-tag';
import { z } from 'zod';
import { readPage, type SortKey } from '../../db/pages.js';
import { countStatement } from '../../db/row-counts.js';
import type { Context } from '../../kernel/context.js';
import { conflict, notFound } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { oneOf, parseInput } from '../../kernel/validation.js';
import { newId } from '../../kernel/ids.js';
import { PageVersion, Revision, type RevisionRow } from '../content/index.js';
import type { Manifest } from '../content/index.js';
import { readRevisions, storeTree, type StoredObjects } from '../content/index.js';
import { mergeManifests, type ConflictChoice } from '../content/index.js';
import { Space, type SpaceEntity, type SpaceRow } from '../spaces/index.js';
import { applyChanges } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { revisionPayload, revisionTarget } from '../content/index.js';
import { ChangeRequest, type ChangeRequestEntity, type ChangeRequestRow } from './entities.js';
import { changeRequestPayload, changeRequestTarget } from './events.js';
import { numberKey } from './loaders.js';
import { CreateChangeRequestInput, UpdateChangeRequestInput } from './inputs.js';

export const STATUSES = ['draft', 'open', 'archived', 'merged'] as const;

/**
 * Status moves that PATCH allows. `merged` is reached only by merging, and a merged change request is
 * final. Archived ones can be reopened (as open or draft).
 */
const ALLOWED_MOVES: Record<string, readonly string[]> = {
  draft: ['open', 'archived'],
  open: ['draft', 'archived'],
  archived: ['open', 'draft'],
  merged: [],
};

const ListFilter = z.object({ status: oneOf(STATUSES), contributor: z.string().optional().nullable() });

/** A change request of the space, by id or by its number in the space; 404 otherwise. */
export async function changeRequestIn(ctx: Context, spaceId: string, ref: string): Promise<ChangeRequestRow> {
  const byId = await ctx.loaders.changeRequest.load(ref);
  let found = byId && byId.space === spaceId ? byId : null;
  if (!found && /^[1-9]\d{0,9}$/.test(ref)) found = await ctx.loaders.changeRequestByNumber.load(numberKey(spaceId, Number(ref)));
  if (!found) throw notFound('Change request');
  return found;
}

/** The rule `liveSpace` (checks.ts): a deleted or locked space takes no content change (409). */
export function assertEditable(space: SpaceRow) {
  if (space.deletedAt) throw conflict('Space is deleted: restore it first');
  if (space.editMode === 'locked') throw conflict('Space is locked: set its editMode to live to edit or merge content');
}

/**
 * The space locked for this transaction (SELECT … FOR UPDATE): merges and creations on one space take
 * turns, so each sees the revision the previous one left. Refused when the space is deleted or locked.
 */
export async function lockSpace(tx: EntityManager, spaceId: string): Promise<SpaceEntity> {
  const space = await tx.findOneOrFail(Space, { id: spaceId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  assertEditable(space);
  return space;
}

/** The space as this transaction sees it, refused when deleted or locked (edits need no lock on it). */
export async function editableSpace(tx: EntityManager, spaceId: string): Promise<SpaceRow> {
  const space = await tx.findOneOrFail(Space, { id: spaceId }, { refresh: true });
  assertEditable(space);
  return space;
}

/** The change request locked for this transaction, so that concurrent edits apply one after the other. */
export async function lockChangeRequest(tx: EntityManager, id: string): Promise<ChangeRequestEntity> {
  const changeRequest = await tx.findOneOrFail(ChangeRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (changeRequest.status === 'merged') throw conflict('Change request is merged: its content can no longer change');
  return changeRequest;
}

/** The main revision the change request's content is based on: the last one an update brought in, else its start. */
export const baseOf = (changeRequest: ChangeRequestRow) => changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial;

/** True when the space's main content moved since the change request's base. */
export function isOutdated(changeRequest: ChangeRequestRow, space: SpaceRow): boolean {
  return changeRequest.status !== 'merged' && space.revision !== baseOf(changeRequest);
}

export async function createChangeRequest(ctx: Context, spaceId: string, input: unknown): Promise<ChangeRequestRow> {
  const fields = parseInput(CreateChangeRequestInput, input ?? {});
  assertEditable((await ctx.loaders.space.load(spaceId))!);
  const author = ctx.viewer!.user.id;
  const created = await ctx.em.transactional(async (tx) => {
    const space = await lockSpace(tx, spaceId);
    const [last] = await tx.find(ChangeRequest, { space: spaceId }, { orderBy: { number: 'desc' }, limit: 1 });
    const now = ctx.clock.now();
    const changeRequest = tx.create(ChangeRequest, {
      id: newId(),
      organization: space.organization,
      space: spaceId,
      number: (last?.number ?? 0) + 1,
      status: 'open',
      subject: fields.subject ?? '',
      createdBy: author,
      contributors: [author],
      revision: space.revision,
      revisionInitial: space.revision,
      revisionMergedAncestor: null,
      revisionMerged: null,
      createdAt: now,
      updatedAt: now,
    });
    recordEvent(ctx, tx, {
      type: 'change_request.opened',
      organizationId: space.organization,
      target: changeRequestTarget(changeRequest),
      payload: changeRequestPayload(changeRequest),
    });
    return changeRequest;
  });
  return created;
}

export async function updateChangeRequest(ctx: Context, spaceId: string, ref: string, input: unknown): Promise<ChangeRequestRow> {
  const changes = parseInput(UpdateChangeRequestInput, input ?? {});
  const found = await changeRequestIn(ctx, spaceId, ref);
  const changeRequest = await ctx.em.findOneOrFail(ChangeRequest, { id: found.id }, { refresh: true });
  if (changeRequest.status === 'merged') throw conflict('Change request is merged: it can no longer change');
  if (changes.status && changes.status !== changeRequest.status && !ALLOWED_MOVES[changeRequest.status].includes(changes.status)) {
    throw conflict(`status: a ${changeRequest.status} change request cannot become ${changes.status}`);
  }
  const from = changeRequest.status;
  const changed = applyChanges(changeRequest, changes, ctx.clock.now());
  const event = { organizationId: changeRequest.organization, target: changeRequestTarget(changeRequest) };
  // A subject and a status changed by one request are two kinds of change: each has its event.
  const edited = changed.filter((field) => field !== 'status');
  if (edited.length)
    recordEvent(ctx, ctx.em, { ...event, type: 'change_request.updated', payload: { ...changeRequestPayload(changeRequest), changes: edited } });
  if (changed.includes('status')) {
    recordEvent(ctx, ctx.em, {
      ...event,
      type: 'change_request.status_changed',
      payload: { ...changeRequestPayload(changeRequest), changes: ['status'], from, to: changeRequest.status },
    });
  }
  await ctx.em.flush();
  return changeRequest;
}

/** Newest first: numbers only grow within a space. */
export const newestFirst: SortKey<ChangeRequestRow>[] = [{ sql: 'c.number', desc: true, integer: true, of: (c) => c.number }];

/**
 * Change requests of a space with `status` (default open), optionally those `contributor` took part in;
 * newest first. One page read in SQL (index on space, status and number).
 */
export async function listChangeRequests(ctx: Context, spaceId: string, filter: { status?: string | null; contributor?: string | null }, args: PageArgs) {
  const { status, contributor } = parseInput(ListFilter, { status: filter.status ?? 'open', contributor: filter.contributor });
  const contributed = contributor ? sql`and c.contributors @> jsonb_build_array(${contributor}::text)` : empty;
  // The database keeps the size of each status's list; a contributor's part of it is counted.
  const count = contributor ? undefined : countStatement('change_requests_of_space', spaceId, sql`kept.bucket = ${status}`);
  return readPage(
    ctx.em,
    { entity: ChangeRequest, alias: 'c', where: sql`c.space_id = ${spaceId} and c.status = ${status} ${contributed}`, order: newestFirst, count },
    args,
  );
}

/** The content of these revisions, and the tree objects they hold (which a new revision shares). */
async function manifests(tx: EntityManager, ids: string[]): Promise<{ sides: Manifest[]; stored: StoredObjects }> {
  const { revisions, stored } = await readRevisions(tx, ids);
  const sides = ids.map((id) => {
    const revision = revisions.find((r) => r.id === id);
    if (!revision) throw new Error(`Revision ${id} is missing`);
    return revision;
  });
  return { sides, stored };
}

/** A 409 naming the pages both sides changed, by title and id. */
async function conflictOn(tx: EntityManager, pageIds: string[], sides: Manifest[], action: string) {
  const keys = sides.flatMap((m) => m.pages.filter((p) => pageIds.includes(p.page)).map((p) => p.version));
  const versions = await tx.find(PageVersion, { key: { $in: keys } });
  const named = pageIds.map((id) => {
    const title = versions.find((v) => v.page === id)?.title;
    return title ? `"${title}" (${id})` : id;
  });
  return conflict(`${action}: conflicting changes on pages ${named.join(', ')}`);
}

async function newRevision(
  tx: EntityManager,
  ctx: Context,
  space: SpaceRow,
  fields: Pick<RevisionRow, 'type' | 'parents' | 'changeRequest'>,
  manifest: Manifest,
  stored: StoredObjects,
) {
  const { tree } = await storeTree(tx, { organization: space.organization, space: space.id }, manifest, stored);
  return tx.create(Revision, {
    id: newId(),
    organization: space.organization,
    space: space.id,
    createdBy: ctx.viewer!.user.id,
    createdAt: ctx.clock.now(),
    ...fields,
    tree,
  });
}

/**
 * Merges a change request into the space's main content (three-way, page by page, from the change
 * request's base). Runs with the space locked: of two merges at once the second sees the first's
 * result, so it either combines with it or is refused with 409; nothing is overwritten.
 */
export async function mergeChangeRequest(ctx: Context, spaceId: string, ref: string) {
  const found = await changeRequestIn(ctx, spaceId, ref);
  assertEditable((await ctx.loaders.space.load(spaceId))!);
  const revision = await ctx.em.transactional(async (em) => {
    const tx = em;
    const space = await lockSpace(tx, spaceId);
    const changeRequest = await lockChangeRequest(tx, found.id);
    const { sides, stored } = await manifests(tx, [baseOf(changeRequest), changeRequest.revision, space.revision]);
    const outcome = mergeManifests(sides[0], sides[1], sides[2]);
    if (!outcome.manifest) throw await conflictOn(tx, outcome.conflicts, sides, 'Cannot merge');
    const merged = await newRevision(
      tx,
      ctx,
      space,
      { type: 'merge', parents: [space.revision, changeRequest.revision], changeRequest: changeRequest.id },
      outcome.manifest,
      stored,
    );
    const now = ctx.clock.now();
    Object.assign(space, { revision: merged.id, updatedAt: now });
    for (const area of ctx.areas) await area.spaceContentChanged?.(tx, ctx.clock, space, false);
    Object.assign(changeRequest, { status: 'merged', revisionMerged: merged.id, updatedAt: now });
    recordEvent(ctx, tx, { type: 'content.edited', organizationId: space.organization, target: revisionTarget(merged), payload: revisionPayload(merged) });
    recordEvent(ctx, tx, {
      type: 'change_request.merged',
      organizationId: space.organization,
      target: changeRequestTarget(changeRequest),
      payload: changeRequestPayload(changeRequest),
    });
    return merged.id;
  });
  return { revision, result: 'merge' };
}

/**
 * Brings the space's main content into the change request by the same rules as a merge. Pages both
 * sides changed are refused with 409 unless `conflicts` keeps one side for them (`ours`: the change
 * request's, `theirs`: the main content's).
 */
export async function updateChangeRequestFromMain(ctx: Context, spaceId: string, ref: string, choice: ConflictChoice = 'refuse') {
  const found = await changeRequestIn(ctx, spaceId, ref);
  assertEditable((await ctx.loaders.space.load(spaceId))!);
  const revision = await ctx.em.transactional(async (em) => {
    const tx = em;
    const changeRequest = await lockChangeRequest(tx, found.id);
    const space = await editableSpace(tx, spaceId);
    if (space.revision === baseOf(changeRequest)) return changeRequest.revision;
    const { sides, stored } = await manifests(tx, [baseOf(changeRequest), changeRequest.revision, space.revision]);
    const outcome = mergeManifests(sides[0], sides[1], sides[2], choice);
    if (!outcome.manifest) throw await conflictOn(tx, outcome.conflicts, sides, 'Cannot update');
    const updated = await newRevision(
      tx,
      ctx,
      space,
      { type: 'update', parents: [changeRequest.revision, space.revision], changeRequest: changeRequest.id },
      outcome.manifest,
      stored,
    );
    Object.assign(changeRequest, { revision: updated.id, revisionMergedAncestor: space.revision, updatedAt: ctx.clock.now() });
    recordEvent(ctx, tx, { type: 'content.edited', organizationId: space.organization, target: revisionTarget(updated), payload: revisionPayload(updated) });
    return updated.id;
  });
  return { revision, result: 'update' };
}
