import type { Context } from '../../kernel/context.js';
import type { ChangeRequestRow } from '../change-requests/index.js';
import type { SpaceRow } from '../spaces/index.js';
import type { ContentFileRow, PageVersionRow, RevisionContent } from './entities.js';
import type { FileEntry, PageEntry } from './manifest.js';

/** The query flags of content reads: `metadata` false leaves out git metadata; `format` picks the body. */
export type ReadOptions = { metadata: boolean; format: 'markdown' | 'document' };
export const DEFAULT_READ: ReadOptions = { metadata: true, format: 'markdown' };

/** A revision as read: in a space, through a change request (or the main content), with read flags. */
export type RevisionView = { revision: RevisionContent; space: SpaceRow; changeRequest: ChangeRequestRow | null; options: ReadOptions };
/** A revision read through a change request (its current content). */
export type ChangeRequestView = RevisionView & { changeRequest: ChangeRequestRow };

export type PageView = {
  view: RevisionView;
  entry: PageEntry;
  version: PageVersionRow;
  pages: PageView[];
};

export type FileView = { view: RevisionView; entry: FileEntry; file: ContentFileRow };

export type PageTree = { roots: PageView[]; all: PageView[]; byId: Map<string, PageView>; byPath: Map<string, PageView> };

const trees = new WeakMap<RevisionView, Promise<PageTree>>();
const fileLists = new WeakMap<RevisionView, Promise<FileView[]>>();

/** The page tree of a revision; all page versions come in one batch. Built once per view. */
export function pageTree(ctx: Context, view: RevisionView): Promise<PageTree> {
  let tree = trees.get(view);
  if (!tree) trees.set(view, (tree = buildTree(ctx, view)));
  return tree;
}

async function buildTree(ctx: Context, view: RevisionView): Promise<PageTree> {
  const entries = view.revision.pages;
  await ctx.loaders.pageVersion.loadAll(entries.map((e) => e.version));
  const byId = new Map<string, PageView>();
  const byPath = new Map<string, PageView>();
  const roots: PageView[] = [];
  const all: PageView[] = [];
  for (const entry of entries) {
    // Loaded above: `get` hands out the row itself.
    const page: PageView = { view, entry, version: ctx.loaders.pageVersion.get(entry.version) as PageVersionRow, pages: [] };
    byId.set(entry.page, page);
    byPath.set(entry.path, page);
    all.push(page);
    // Manifests are in tree order: a parent always comes before its children.
    if (entry.parent) byId.get(entry.parent)!.pages.push(page);
    else roots.push(page);
  }
  return { roots, all, byId, byPath };
}

/** The files of a revision, in the order they were added. */
export function fileViews(ctx: Context, view: RevisionView): Promise<FileView[]> {
  let files = fileLists.get(view);
  if (!files) {
    files = (async () => {
      await ctx.loaders.contentFile.loadAll(view.revision.files.map((entry) => entry.version));
      return view.revision.files.map((entry) => ({ view, entry, file: ctx.loaders.contentFile.get(entry.version) as ContentFileRow }));
    })();
    fileLists.set(view, files);
  }
  return files;
}

/** Where a page's markdown lives in a git export: `<path>.md`, or `<path>/README.md` for a page with children. */
export function gitPathOf(page: PageView): string {
  return page.pages.length ? `${page.entry.path}/README.md` : `${page.entry.path}.md`;
}

/** Where a file lives in a git export, and how markdown refers to it. */
export function gitPathOfFile(file: ContentFileRow): string {
  return `.gitbook/assets/${file.name}`;
}

/** The app address of a page: in the change request when read through one, else in the main content. */
export function pageAppUrl(appUrl: string, space: SpaceRow, path: string, changeRequest: ChangeRequestRow | null): string {
  const base = `${appUrl}/o/${space.organization}/s/${space.id}`;
  return changeRequest ? `${base}/~/changes/${changeRequest.number}/${path}` : `${base}/${path}`;
}
