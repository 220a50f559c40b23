import { z } from 'zod';
import type { Context } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { parseInput } from '../../kernel/validation.js';
import { changeRequestIn, type ChangeRequestRow } from '../change-requests/index.js';
import type { ContentFileRow, PageVersionRow, RevisionContent } from './entities.js';
import { downloadUrl } from './files.js';
import type { FileEntry, PageEntry } from './manifest.js';
import { DEFAULT_LAYOUT } from './layout.js';

/*
 * A semantic comparison of two revisions of a space, in the current client's shape
 * (RevisionSemanticChanges): pages created, edited (the attributes that changed), moved (another
 * parent, or another place among its siblings) and deleted, then files created, edited and deleted.
 * It is computed from the two stored manifests: entries whose version and place are equal are the
 * same page, so only the versions of pages that changed (and of the parents a move names) are read.
 * A revision is immutable, so the answer for two revisions never changes.
 */

/** How many changes an answer lists at most when `limit` is not given (0.202.0's default), and the most it may ask. */
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;
const Limit = z.object({ limit: z.number().int().min(1).max(MAX_LIMIT).nullish() });

type Change = Record<string, unknown>;
export type SemanticChanges = { changes: Change[]; more?: number; mergedFrom: ChangeRequestRow | null };

type Side = { pages: Map<string, PageEntry>; files: Map<string, FileEntry> };
const sideOf = (revision: RevisionContent | null): Side => ({
  pages: new Map((revision?.pages ?? []).map((p) => [p.page, p])),
  files: new Map((revision?.files ?? []).map((f) => [f.file, f])),
});

/** Siblings' order: the page ids under `parent`, in tree order. */
const siblingsOf = (side: Side, parent: string | null) => [...side.pages.values()].filter((p) => p.parent === parent).map((p) => p.page);

/** The attributes of a page version that 0.202.0 names, as its page reads answer them. */
const attributesOf = (entry: PageEntry, version: PageVersionRow): Record<string, unknown> => ({
  title: version.title,
  description: version.description ?? '',
  slug: entry.slug,
  document: version.key,
  emoji: version.emoji ?? undefined,
  cover: version.cover ?? undefined,
  layout: { ...DEFAULT_LAYOUT, ...(version.layout ?? {}) },
});

/** The attributes that differ, each as {before, after} (a side without a value leaves it out). */
function changedAttributes(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, { before?: unknown; after?: unknown }> {
  const changed: Record<string, { before?: unknown; after?: unknown }> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    changed[key] = { ...(before[key] === undefined ? {} : { before: before[key] }), ...(after[key] === undefined ? {} : { after: after[key] }) };
  }
  return changed;
}

/** The changes from `base` to `head` (null: an empty content), in the order described above. */
async function compare(ctx: Context, base: RevisionContent | null, head: RevisionContent): Promise<Change[]> {
  const before = sideOf(base);
  const after = sideOf(head);
  const created = head.pages.filter((p) => !before.pages.has(p.page));
  const deleted = (base?.pages ?? []).filter((p) => !after.pages.has(p.page));
  const kept = head.pages.filter((p) => before.pages.has(p.page));
  const edited = kept.filter((p) => before.pages.get(p.page)!.version !== p.version || before.pages.get(p.page)!.slug !== p.slug);
  const moved = kept.filter((p) => {
    const was = before.pages.get(p.page)!;
    if (was.parent !== p.parent) return true;
    if (was.position === p.position) return false;
    // Another position key among the same siblings is a move only if the order changed.
    const common = (ids: string[]) => ids.filter((id) => before.pages.has(id) && after.pages.has(id));
    return common(siblingsOf(before, p.parent)).join() !== common(siblingsOf(after, p.parent)).join();
  });
  // The versions to read: every page reported, on both sides, and the parents a move names.
  const keys = new Set<string>();
  for (const p of [...created, ...edited, ...moved]) keys.add(p.version);
  for (const p of [...deleted, ...edited]) keys.add(before.pages.get(p.page)!.version);
  for (const p of moved) {
    if (p.parent) keys.add(after.pages.get(p.parent)!.version);
    const was = before.pages.get(p.page)!.parent;
    if (was) keys.add(before.pages.get(was)!.version);
  }
  const versions = new Map<string, PageVersionRow>();
  const loaded = await ctx.loaders.pageVersion.loadMany([...keys]);
  for (const row of loaded) if (row && !(row instanceof Error)) versions.set(row.key, row);
  const pageOf = (entry: PageEntry) => ({ id: entry.page, type: 'document', title: versions.get(entry.version)!.title, path: entry.path });

  const editedIds = new Set(edited.map((p) => p.page));
  const movedIds = new Set(moved.map((p) => p.page));
  const changes: Change[] = [];
  for (const entry of head.pages) {
    if (!before.pages.has(entry.page)) {
      changes.push({ type: 'page_created', page: pageOf(entry) });
      continue;
    }
    const was = before.pages.get(entry.page)!;
    if (editedIds.has(entry.page)) {
      const attributes = changedAttributes(attributesOf(was, versions.get(was.version)!), attributesOf(entry, versions.get(entry.version)!));
      if (Object.keys(attributes).length) changes.push({ type: 'page_edited', page: pageOf(entry), attributes });
    }
    if (movedIds.has(entry.page)) {
      const parent = {
        ...(was.parent ? { before: pageOf(before.pages.get(was.parent)!) } : {}),
        ...(entry.parent ? { after: pageOf(after.pages.get(entry.parent)!) } : {}),
      };
      changes.push({ type: 'page_moved', page: pageOf(entry), parent });
    }
  }
  for (const entry of deleted) changes.push({ type: 'page_deleted', page: pageOf(entry) });
  changes.push(...(await fileChanges(ctx, base, head, before, after)));
  return changes;
}

/** Files created, edited (name, type, size, dimensions) and deleted. */
async function fileChanges(ctx: Context, base: RevisionContent | null, head: RevisionContent, before: Side, after: Side): Promise<Change[]> {
  const created = head.files.filter((f) => !before.files.has(f.file));
  const edited = head.files.filter((f) => before.files.has(f.file) && before.files.get(f.file)!.version !== f.version);
  const deleted = (base?.files ?? []).filter((f) => !after.files.has(f.file));
  const keys = [...created, ...edited, ...deleted].map((f) => f.version).concat(edited.map((f) => before.files.get(f.file)!.version));
  const rows = new Map<string, ContentFileRow>();
  for (const row of await ctx.loaders.contentFile.loadMany(keys)) if (row && !(row instanceof Error)) rows.set(row.key, row);
  const fileOf = async (entry: FileEntry) => {
    const row = rows.get(entry.version)!;
    return { id: entry.file, name: row.name, contentType: row.contentType, downloadURL: await downloadUrl(ctx, row) };
  };
  const fields = (row: ContentFileRow) => ({
    name: row.name,
    contentType: row.contentType,
    size: row.size,
    dimensions: row.width != null && row.height != null ? { width: row.width, height: row.height } : undefined,
  });
  const changes: Change[] = [];
  for (const entry of created) changes.push({ type: 'file_created', file: await fileOf(entry) });
  for (const entry of edited) {
    const attributes = changedAttributes(fields(rows.get(before.files.get(entry.file)!.version)!), fields(rows.get(entry.version)!));
    if (Object.keys(attributes).length) changes.push({ type: 'file_edited', file: await fileOf(entry), attributes });
  }
  for (const entry of deleted) changes.push({ type: 'file_deleted', file: await fileOf(entry) });
  return changes;
}

/** The first `limit` changes, and how many more there were. */
async function limited(
  ctx: Context,
  base: RevisionContent | null,
  head: RevisionContent,
  args: { limit?: number | null },
  mergedFrom: ChangeRequestRow | null,
) {
  const { limit } = parseInput(Limit, { limit: args.limit });
  const all = await compare(ctx, base, head);
  const max = limit ?? DEFAULT_LIMIT;
  return { changes: all.slice(0, max), ...(all.length > max ? { more: all.length - max } : {}), mergedFrom };
}

/**
 * What a revision of the space changed: its comparison with its first parent (an empty content for
 * the space's first revision). A merge names the change request it merged.
 */
export async function revisionSemanticChanges(ctx: Context, spaceId: string, revisionId: string, args: { limit?: number | null }): Promise<SemanticChanges> {
  const revision = await ctx.loaders.revision.load(revisionId);
  if (!revision || revision.space !== spaceId) throw notFound('Revision');
  const parentId = revision.parents[0];
  const parent = parentId ? await ctx.loaders.revision.load(parentId) : null;
  const mergedFrom = revision.type === 'merge' && revision.changeRequest ? ((await ctx.loaders.changeRequest.load(revision.changeRequest)) ?? null) : null;
  return limited(ctx, parent ?? null, revision, args, mergedFrom);
}

/**
 * What a change request changes: its current revision compared with the main revision it started
 * from or last brought itself up to date with (`revisionMergedAncestor`, else `revisionInitial`).
 */
export async function changeRequestChanges(ctx: Context, spaceId: string, ref: string, args: { limit?: number | null }): Promise<SemanticChanges> {
  const changeRequest = await changeRequestIn(ctx, spaceId, ref);
  const [base, head] = await Promise.all([
    ctx.loaders.revision.load(changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial),
    ctx.loaders.revision.load(changeRequest.revision),
  ]);
  return limited(ctx, base ?? null, head!, args, null);
}
