import type { Context } from '../../kernel/context.js';
import { DomainError, badRequest } from '../../kernel/errors.js';
import { byPosition } from '../../kernel/ordering.js';
import { parseInput } from '../../kernel/validation.js';
import { newId } from '../../kernel/ids.js';
import { editChangeRequest, entryOf, writeVersion, type Draft, type PageFields } from './editing.js';
import { ContentFile, PageVersion, type PageVersionRow } from './entities.js';
import { uploadFile } from './files.js';
import { readFrontmatter, resolveLinks, takeLeadingHeading, type LinkResolver } from './batch-markdown.js';
import { blobId } from './git.js';
import { UpdateChangeRequestContentInput, type BatchChange } from './inputs.js';
import { arrange, assertDepth, heightOf, positionFor, slugOf, subtree, type PageEntry } from './manifest.js';
import { readRevision } from './store.js';
import type { ChangeRequestView } from './views.js';

/*
 * A batch of content changes to a change request (the current client's updateChangeRequestContent):
 * the changes apply in order to one draft of its content, which becomes one new revision (one
 * `content.edited` event); the first change that fails refuses the whole batch, naming it, and nothing
 * is written. Links in the batch's markdown are resolved once every change has applied, so a page may
 * link to a page or file that a later change of the batch adds (see batch-markdown.ts).
 */

/** What the batch did to a page, by its first touch: created, updated or deleted (0.202.0's ChangeRequestContentUpdateChange). */
export type PageOutcome = { page: string; kind: 'created' | 'updated' | 'deleted'; ref?: string };
export type BatchResult = { view: ChangeRequestView; pages: PageOutcome[]; insertedFiles: string[] };

/** A new page's title when neither the change nor its markdown gives one. */
const DEFAULT_TITLE = 'Untitled';

type BatchState = {
  draft: Draft;
  outcomes: Map<string, PageOutcome>;
  pageRefs: Map<string, string>;
  fileRefs: Map<string, string>;
  /** Pages whose body the batch set, with the version holding it (its links are resolved at the end). */
  bodies: Map<string, PageVersionRow>;
  insertedFiles: string[];
};

type PageChange = Extract<BatchChange, { operation: 'insert_page' | 'update_page' }>;

/** The change's metadata and body as page fields: frontmatter over the change's fields; a new page's title from its leading heading too. */
function fieldsOf(change: PageChange, isNew: boolean): PageFields {
  const fields: PageFields = {};
  for (const key of ['title', 'description', 'hidden', 'noIndex', 'noRobotsIndex'] as const)
    if (change[key] !== undefined) Object.assign(fields, { [key]: change[key] });
  // An empty string removes the emoji or icon.
  if (change.emoji !== undefined) fields.emoji = change.emoji || null;
  if (change.icon !== undefined) fields.icon = change.icon || null;
  const markdown = change.document?.markdown ?? (change.document ? '' : undefined);
  if (markdown === undefined) return fields;
  const { body, metadata } = readFrontmatter(markdown);
  const heading = isNew && metadata.title === undefined ? takeLeadingHeading(body) : { body };
  return { ...fields, ...metadata, title: metadata.title ?? heading.title ?? fields.title, markdown: heading.body };
}

/** Siblings of a parent in order (without the page itself). */
const siblingsOf = (draft: Draft, parent: string | null, pageId: string) =>
  draft.pages
    .filter((p) => p.parent === parent && p.page !== pageId)
    .map((p) => ({ id: p.page, position: p.position }))
    .sort(byPosition);

/** The ordering key for a page at index `at` among the parent's other children (the end when omitted or past the last). */
function positionAt(draft: Draft, pageId: string, parent: string | null, at: number | undefined): string {
  const siblings = siblingsOf(draft, parent, pageId);
  const before = at !== undefined && at < siblings.length ? siblings[at].id : undefined;
  return positionFor(draft.pages, pageId, { parent, before });
}

function assertParent(draft: Draft, parent: string | null) {
  if (parent && !draft.pages.some((p) => p.page === parent)) throw badRequest(`into: no page "${parent}" in this change request`);
}

/** Refuses a slug that a sibling of the page's parent already has. */
function assertFreeSlug(draft: Draft, pageId: string, parent: string | null, slug: string) {
  const taken = arrange(draft.pages).some((p) => p.parent === parent && p.page !== pageId && (p.slug === slug || p.name === slug));
  if (taken) throw badRequest(`slug: "${slug}" is taken by a sibling page`);
}

function touch(state: BatchState, page: string, kind: PageOutcome['kind'], ref?: string) {
  const known = state.outcomes.get(page);
  if (!known) state.outcomes.set(page, { page, kind, ...(ref ? { ref } : {}) });
  else if (kind === 'deleted' && known.kind === 'created') state.outcomes.delete(page);
  else if (kind === 'deleted') known.kind = 'deleted';
}

function insertPage(state: BatchState, change: Extract<BatchChange, { operation: 'insert_page' }>) {
  const { draft } = state;
  if (change.ref && (state.pageRefs.has(change.ref) || state.fileRefs.has(change.ref))) throw badRequest(`ref: "${change.ref}" is used twice in the batch`);
  const parent = change.into ?? null;
  assertParent(draft, parent);
  assertDepth(draft.pages, parent);
  const fields = fieldsOf(change, true);
  const id = newId();
  const version = writeVersion(draft, id, null, { ...fields, title: fields.title ?? DEFAULT_TITLE });
  const slug = change.slug ?? slugOf(version.title);
  if (change.slug) assertFreeSlug(draft, id, parent, slug);
  draft.pages.push({ page: id, version: version.key, parent, position: positionAt(draft, id, parent, change.at), name: slug });
  state.bodies.set(id, version);
  if (change.ref) state.pageRefs.set(change.ref, id);
  touch(state, id, 'created', change.ref);
}

async function updatePage(state: BatchState, change: Extract<BatchChange, { operation: 'update_page' }>) {
  const { draft } = state;
  const entry = entryOf(draft, change.page);
  if (change.into !== undefined && change.into !== entry.parent) {
    assertParent(draft, change.into);
    if (change.into && subtree(arrange(draft.pages), entry.page).has(change.into)) throw badRequest('into: a page cannot move under itself or its descendants');
    assertDepth(draft.pages, change.into, heightOf(draft.pages, entry.page));
    entry.position = positionAt(draft, entry.page, change.into, change.at);
    entry.parent = change.into;
  } else if (change.at !== undefined) entry.position = positionAt(draft, entry.page, entry.parent, change.at);
  if (change.slug) {
    assertFreeSlug(draft, entry.page, entry.parent, change.slug);
    entry.name = change.slug;
  }
  const fields = fieldsOf(change, false);
  if (Object.keys(fields).length) {
    const previous = await draft.tx.findOneOrFail(PageVersion, { key: entry.version });
    const version = writeVersion(draft, entry.page, previous, fields);
    entry.version = version.key;
    if (fields.markdown !== undefined) state.bodies.set(entry.page, version);
  }
  touch(state, entry.page, 'updated');
}

function deletePages(state: BatchState, pageId: string) {
  const { draft } = state;
  entryOf(draft, pageId);
  const removed = subtree(arrange(draft.pages), pageId);
  draft.pages = draft.pages.filter((p) => !removed.has(p.page));
  for (const id of removed) if (id === pageId || state.outcomes.has(id)) touch(state, id, 'deleted');
}

/** Puts a page back as it is in another revision of the space: removed if it was not there, restored or reset otherwise. */
async function revertPage(state: BatchState, change: Extract<BatchChange, { operation: 'revert_page' }>) {
  const { draft } = state;
  const target = change.revision ?? draft.base;
  const { revision } = await readRevision(draft.tx, target).catch(() => {
    throw badRequest(`revision: no revision "${target}" in this space`);
  });
  if (revision.space !== draft.space) throw badRequest(`revision: no revision "${target}" in this space`);
  const then: PageEntry | undefined = revision.pages.find((p) => p.page === change.page);
  const now = draft.pages.find((p) => p.page === change.page);
  if (!then && !now) throw badRequest(`page: no page "${change.page}" in this change request or in revision "${target}"`);
  if (!then) return deletePages(state, change.page);
  if (now) {
    now.version = then.version;
    now.name = then.name;
    return touch(state, change.page, 'updated');
  }
  const parent = then.parent && draft.pages.some((p) => p.page === then.parent) ? then.parent : null;
  assertDepth(draft.pages, parent);
  draft.pages.push({ page: then.page, version: then.version, parent, position: then.position, name: then.name });
  touch(state, change.page, 'created');
}

function insertFiles(state: BatchState, change: Extract<BatchChange, { operation: 'insert_files' }>) {
  for (const file of change.files) {
    if (file.ref && (state.pageRefs.has(file.ref) || state.fileRefs.has(file.ref))) throw badRequest(`ref: "${file.ref}" is used twice in the batch`);
    const id = uploadFile(state.draft, { name: file.name, contentType: file.contentType, content: file.base64 });
    if (file.ref) state.fileRefs.set(file.ref, id);
    state.insertedFiles.push(id);
  }
}

/** The links a batch's markdown may use, resolved against the draft as every change left it. */
async function linkResolver(state: BatchState): Promise<LinkResolver> {
  const { draft } = state;
  const pages = arrange(draft.pages);
  const parents = new Set(pages.map((p) => p.parent));
  const gitPath = (p: PageEntry) => (parents.has(p.page) ? `/${p.path}/README.md` : `/${p.path}.md`);
  const byId = new Map(pages.map((p) => [p.page, p]));
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const keys = draft.files.map((f) => f.version);
  const rows = keys.length ? await draft.tx.find(ContentFile, { key: { $in: keys } }, { fields: ['key', 'file', 'name'] }) : [];
  const fileNames = new Map(rows.map((row) => [row.file, row.name]));
  const fileLink = (id: string | undefined) => (id && fileNames.has(id) ? `/.gitbook/assets/${fileNames.get(id)!}` : undefined);
  return (url) => {
    const [path, anchor] = [url.replace(/#.*$/, ''), /#.*$/.exec(url)?.[0] ?? ''];
    if (path.startsWith('/pages/')) {
      const rest = decodeURIComponent(path.slice('/pages/'.length)).replace(/\/+$/, '');
      const page = byId.get(rest) ?? byPath.get(rest.replace(/(^|\/)README\.md$/i, '').replace(/\.md$/i, ''));
      return page ? gitPath(page) + anchor : null;
    }
    if (path.startsWith('/files/')) return fileLink(path.slice('/files/'.length)) ?? null;
    const local = path.replace(/^\.\//, '');
    const pageRef = state.pageRefs.get(local.replace(/\.md$/i, ''));
    if (pageRef && byId.has(pageRef)) return gitPath(byId.get(pageRef)!) + anchor;
    return fileLink(state.fileRefs.get(local));
  };
}

/** Applies one change; a failure names the change (`changes[2]: …`) and is a 400 unless the whole edit is refused (409). */
async function applyChange(state: BatchState, change: BatchChange, index: number) {
  try {
    if (change.operation === 'insert_page') insertPage(state, change);
    else if (change.operation === 'update_page') await updatePage(state, change);
    else if (change.operation === 'delete_page') deletePages(state, change.page);
    else if (change.operation === 'revert_page') await revertPage(state, change);
    else insertFiles(state, change);
  } catch (error) {
    // A page or file a change names that is not there makes the change invalid: the batch is bad input (404 is for the change request).
    if (error instanceof DomainError) throw new DomainError(error.code === 'NOT_FOUND' ? 'BAD_REQUEST' : error.code, `changes[${index}]: ${error.message}`);
    throw error;
  }
}

/** Applies a batch of changes to a change request as one new revision; all or nothing. */
export async function applyContentChanges(ctx: Context, spaceId: string, changeRequestId: string, input: unknown): Promise<BatchResult> {
  const { changes } = parseInput(UpdateChangeRequestContentInput, input);
  const { result, view } = await editChangeRequest(ctx, spaceId, changeRequestId, async (draft) => {
    const state: BatchState = { draft, outcomes: new Map(), pageRefs: new Map(), fileRefs: new Map(), bodies: new Map(), insertedFiles: [] };
    for (const [index, change] of changes.entries()) await applyChange(state, change, index);
    const resolve = await linkResolver(state);
    for (const [page, version] of state.bodies) {
      if (!draft.pages.some((p) => p.page === page && p.version === version.key)) continue;
      const markdown = resolveLinks(version.markdown, resolve);
      // The version was written by this batch: it still takes its final body.
      if (markdown !== version.markdown) Object.assign(version, { markdown, oid: blobId(markdown) });
    }
    return { pages: [...state.outcomes.values()], insertedFiles: state.insertedFiles };
  });
  return { view, ...result };
}

/** The batch's affected pages as 0.202.0's ChangeRequestContentUpdateChange: each kept page with the API URL of its content. */
export function batchOutcomes(ctx: Context, result: BatchResult) {
  const { space, changeRequest } = result.view;
  const location = (page: string) => `${ctx.config.publicUrl}/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/page/${page}`;
  return result.pages.map(({ page, kind, ref }) =>
    kind === 'deleted'
      ? { object: 'deleted_page', page }
      : { object: `${kind}_page`, ...(ref ? { ref } : {}), page: { object: 'page', id: page, urls: { location: location(page) } } },
  );
}
