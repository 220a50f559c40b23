import type { Context } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { paginateRows, type PageArgs } from '../../kernel/pagination.js';
import { changeRequestIn } from '../change-requests/index.js';
import type { SpaceRow } from '../spaces/index.js';
import { linkTargets, markdownToDocument } from './markdown.js';
import { fileViews, gitPathOfFile, pageTree, type FileView, type ChangeRequestView, type PageView, type ReadOptions, type RevisionView } from './views.js';

/** The read flags of a content operation's arguments (`computed` has nothing to skip: no page is computed). */
export function readOptions(args: { metadata?: boolean | null; format?: string | null }): ReadOptions {
  return { metadata: args.metadata !== false, format: args.format === 'document' ? 'document' : 'markdown' };
}

/** A change request's current content. */
export async function changeRequestContent(ctx: Context, spaceId: string, ref: string, options: ReadOptions): Promise<ChangeRequestView> {
  const changeRequest = await changeRequestIn(ctx, spaceId, ref);
  const [space, revision] = await Promise.all([ctx.loaders.space.load(spaceId), ctx.loaders.revision.load(changeRequest.revision)]);
  return { space: space!, revision: revision!, changeRequest, options };
}

/** A space's content: its main content, or its revision `revisionId` (a 404 for a revision of another space). */
export async function spaceRevisionContent(ctx: Context, spaceId: string, revisionId: string | null | undefined, options: ReadOptions): Promise<RevisionView> {
  const space = (await ctx.loaders.space.load(spaceId))!;
  if (!revisionId) return spaceContent(ctx, space, options);
  const revision = await ctx.loaders.revision.load(revisionId);
  if (!revision || revision.space !== space.id) throw notFound('Revision');
  return { space, revision, changeRequest: null, options };
}

/** A page of a view by its path (slugs joined by "/", leading and trailing slashes ignored). */
export async function pageAtPath(ctx: Context, view: RevisionView, path: string): Promise<PageView> {
  const page = (await pageTree(ctx, view)).byPath.get(path.replace(/^\/+|\/+$/g, ''));
  if (!page) throw notFound('Page');
  return page;
}

/** A version of a page's body in the space by its key (a page's `documentId`), as a JSON document. */
export async function documentOfSpace(ctx: Context, spaceId: string, documentId: string) {
  const version = await ctx.loaders.pageVersion.load(documentId);
  if (!version || version.space !== spaceId) throw notFound('Document');
  return markdownToDocument(version.markdown, version.page);
}

/** A space's main content. */
export async function spaceContent(ctx: Context, space: SpaceRow, options: ReadOptions): Promise<RevisionView> {
  const revision = await ctx.loaders.revision.load(space.revision);
  return { space, revision: revision!, changeRequest: null, options };
}

export async function pageIn(ctx: Context, view: RevisionView, pageId: string): Promise<PageView> {
  const page = (await pageTree(ctx, view)).byId.get(pageId);
  if (!page) throw notFound('Page');
  return page;
}

export async function fileIn(ctx: Context, view: RevisionView, fileId: string): Promise<FileView> {
  const file = (await fileViews(ctx, view)).find((f) => f.entry.file === fileId);
  if (!file) throw notFound('File');
  return file;
}

export async function listFiles(ctx: Context, view: RevisionView, args: PageArgs) {
  // Plain rows carry timestamps as Date (PGlite) or as text (the PostgreSQL driver): read both.
  return paginateRows(await fileViews(ctx, view), (f) => [new Date(f.file.createdAt).getTime(), f.entry.file], args);
}

/** True when a link target names the file's git path (`.gitbook/assets/<name>`, relative or not, maybe URL-encoded). */
function refersTo(target: string, gitPath: string): boolean {
  let decoded = target;
  try {
    decoded = decodeURI(target);
  } catch {
    // keep the raw target
  }
  const path = decoded.split(/[?#]/)[0].replace(/^<|>$/g, '');
  return path === gitPath || path.endsWith(`/${gitPath}`);
}

/** Pages of the revision that refer to the file: by their cover, or by a link or image in their body. */
export async function fileBacklinks(ctx: Context, view: RevisionView, fileId: string, args: PageArgs) {
  const file = await fileIn(ctx, view, fileId);
  const gitPath = gitPathOfFile(file.file);
  const pages = (await pageTree(ctx, view)).all.filter((page) => {
    const cover = page.version.cover as { ref?: { kind?: string; file?: string } } | null;
    if (cover?.ref?.kind === 'file' && cover.ref.file === fileId) return true;
    // Parse only bodies that mention the name at all.
    return page.version.markdown.includes(file.file.name.slice(0, 16)) || page.version.markdown.includes(encodeURI(file.file.name).slice(0, 16))
      ? linkTargets(page.version.markdown).some((target) => refersTo(target, gitPath))
      : false;
  });
  const located = pages.map((page, index) => ({ index, kind: 'page' as const, page, view }));
  return paginateRows(located, (l) => [l.index], args);
}
