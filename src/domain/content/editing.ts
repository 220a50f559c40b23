import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Context } from '../../kernel/context.js';
import { badRequest, conflict, notFound } from '../../kernel/errors.js';
import { parseInput } from '../../kernel/validation.js';
import { newId } from '../../kernel/ids.js';
import { changeRequestIn, editableSpace, lockChangeRequest } from '../change-requests/index.js';
import { recordEvent } from '../../events/record.js';
import { PageVersion, Revision, type PageVersionRow } from './entities.js';
import { revisionPayload, revisionTarget } from './events.js';
import { blobId } from './git.js';
import { readRevision, storeTree, withContent } from './store.js';
import { arrange, assertDepth, heightOf, positionFor, slugOf, subtree, type FileEntry, type PagePlacement } from './manifest.js';
import { DEFAULT_READ, type ChangeRequestView } from './views.js';
import { CreatePageInput, MovePageInput, UpdatePageInput } from './inputs.js';

/** A change request's content being edited: the manifest to change, inside the edit's transaction. */
export type Draft = {
  tx: EntityManager;
  organization: string;
  space: string;
  pages: PagePlacement[];
  files: FileEntry[];
  author: string;
  now: Date;
  /** The main revision the change request is based on (what reverting a page goes back to by default). */
  base: string;
};

/**
 * Applies one edit to a change request's content as a new revision whose parent is the current one.
 * The change request is locked meanwhile, so concurrent edits apply one after the other; a locked or
 * deleted space and a merged or archived change request refuse edits with 409.
 */
export async function editChangeRequest<R>(
  ctx: Context,
  spaceId: string,
  ref: string,
  apply: (draft: Draft) => Promise<R> | R,
): Promise<{ result: R; view: ChangeRequestView }> {
  const found = await changeRequestIn(ctx, spaceId, ref);
  const author = ctx.viewer!.user.id;
  const outcome = await ctx.em.transactional(async (em) => {
    const tx = em;
    const space = await editableSpace(tx, spaceId);
    const changeRequest = await lockChangeRequest(tx, found.id);
    if (changeRequest.status === 'archived') throw conflict('Change request is archived: reopen it to edit');
    const { revision: current, stored } = await readRevision(tx, changeRequest.revision);
    const now = ctx.clock.now();
    const draft: Draft = {
      tx,
      organization: space.organization,
      space: space.id,
      pages: current.pages.map((p) => ({ page: p.page, version: p.version, parent: p.parent, position: p.position, name: p.name })),
      files: [...current.files],
      author,
      now,
      base: changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial,
    };
    const result = await apply(draft);
    const written = await storeTree(tx, draft, { pages: arrange(draft.pages), files: draft.files }, stored);
    const row = tx.create(Revision, {
      id: newId(),
      organization: space.organization,
      space: space.id,
      parents: [current.id],
      type: 'edits',
      changeRequest: changeRequest.id,
      createdBy: author,
      tree: written.tree,
      createdAt: now,
    });
    recordEvent(ctx, tx, { type: 'content.edited', organizationId: space.organization, target: revisionTarget(row), payload: revisionPayload(row) });
    const revision = withContent(row, written.manifest);
    Object.assign(changeRequest, {
      revision: revision.id,
      updatedAt: now,
      contributors: changeRequest.contributors.includes(author) ? changeRequest.contributors : [...changeRequest.contributors, author],
    });
    return { result, revision, space, changeRequest };
  });
  return { result: outcome.result, view: { revision: outcome.revision, space: outcome.space, changeRequest: outcome.changeRequest, options: DEFAULT_READ } };
}

export type PageFields = z.infer<typeof UpdatePageInput>;

export function entryOf(draft: Draft, pageId: string): PagePlacement {
  const entry = draft.pages.find((p) => p.page === pageId);
  if (!entry) throw notFound('Page');
  return entry;
}

function assertCover(draft: Draft, cover: PageFields['cover']) {
  if (cover?.file && !draft.files.some((f) => f.file === cover.file)) throw badRequest(`cover.file: no file "${cover.file}" in this change request`);
}

const coverOf = (cover: NonNullable<PageFields['cover']>) => ({
  ref: cover.file ? { kind: 'file', file: cover.file } : { kind: 'url', url: cover.url! },
  yPos: cover.yPos ?? 0,
});

/** A new immutable version of a page, from the previous one (if any) and the changes. */
export function writeVersion(draft: Draft, pageId: string, previous: PageVersionRow | null, changes: PageFields): PageVersionRow {
  const markdown = changes.markdown ?? previous?.markdown ?? '';
  const pick = <K extends keyof PageFields & keyof PageVersionRow>(key: K, fallback: PageVersionRow[K]) =>
    (changes[key] !== undefined ? changes[key] : (previous?.[key] ?? fallback)) as PageVersionRow[K];
  return draft.tx.create(PageVersion, {
    key: newId(),
    organization: draft.organization,
    space: draft.space,
    page: pageId,
    title: changes.title ?? previous!.title,
    emoji: pick('emoji', null),
    icon: pick('icon', null),
    description: pick('description', null),
    markdown,
    layout: changes.layout ? { ...(previous?.layout ?? {}), ...changes.layout } : (previous?.layout ?? null),
    cover: changes.cover !== undefined ? (changes.cover ? coverOf(changes.cover) : null) : (previous?.cover ?? null),
    hidden: pick('hidden', false),
    noIndex: pick('noIndex', false),
    noRobotsIndex: pick('noRobotsIndex', false),
    oid: blobId(markdown),
    createdAt: previous?.createdAt ?? draft.now,
    createdBy: previous ? previous.createdBy : draft.author,
    updatedAt: draft.now,
    updatedBy: draft.author,
  });
}

/** Adds a page (at the end of its parent's children unless `position` says otherwise); returns its id. */
export function createPage(draft: Draft, input: unknown): string {
  const fields = parseInput(CreatePageInput, input);
  const { parent = null, position, ...changes } = fields;
  assertCover(draft, changes.cover);
  assertDepth(draft.pages, parent ?? null);
  const id = newId();
  const place = positionFor(draft.pages, id, { parent: parent ?? null, ...position });
  const version = writeVersion(draft, id, null, changes);
  draft.pages.push({ page: id, version: version.key, parent: parent ?? null, position: place, name: slugOf(version.title) });
  return id;
}

export async function updatePage(draft: Draft, pageId: string, input: unknown): Promise<string> {
  const changes = parseInput(UpdatePageInput, input);
  const entry = entryOf(draft, pageId);
  assertCover(draft, changes.cover);
  const previous = await draft.tx.findOneOrFail(PageVersion, { key: entry.version });
  const version = writeVersion(draft, pageId, previous, changes);
  Object.assign(entry, { version: version.key, name: slugOf(version.title) });
  return pageId;
}

/** Moves a page (with its descendants) under another parent and/or among its siblings. */
export function movePage(draft: Draft, pageId: string, input: unknown): string {
  const { parent, position } = parseInput(MovePageInput, input);
  if (parent === undefined && !position) throw badRequest('parent or position is required');
  const entry = entryOf(draft, pageId);
  const target = parent === undefined ? entry.parent : parent;
  if (target && subtree(arrange(draft.pages), pageId).has(target)) throw badRequest('parent: a page cannot move under itself or its descendants');
  if (target !== entry.parent) assertDepth(draft.pages, target, heightOf(draft.pages, pageId));
  entry.position = positionFor(draft.pages, pageId, { parent: target, ...position });
  entry.parent = target;
  return pageId;
}

/** Removes a page and its descendants. */
export function deletePage(draft: Draft, pageId: string): void {
  entryOf(draft, pageId);
  const removed = subtree(arrange(draft.pages), pageId);
  draft.pages = draft.pages.filter((p) => !removed.has(p.page));
}
