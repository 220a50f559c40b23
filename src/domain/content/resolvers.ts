import type { Context } from '../../kernel/context.js';
import type { PageArgs } from '../../kernel/pagination.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { SpaceRow } from '../spaces/index.js';
import { createPage, deletePage, editChangeRequest, movePage, updatePage, type Draft } from './editing.js';
import { downloadUrl, removeFile, uploadFile } from './files.js';
import { changeRequestPageLinks, spaceLinks, type LinkUsage } from './links.js';
import { markdownToDocument } from './markdown.js';
import { pdfUrl } from './pdf.js';
import { importWebsite } from './website-import.js';
import { changeRequestContent, fileBacklinks, fileIn, listFiles, pageIn, readOptions, spaceContent } from './service.js';
import { fileViews, gitPathOf, gitPathOfFile, pageAppUrl, pageTree, type FileView, type PageView, type RevisionView } from './views.js';

/** A ContentLocation: a page, file or space of some content, or a URL. */
type Location = { kind: string; view?: RevisionView; url?: string };
type InChangeRequest = { spaceId: string; changeRequestId: string; metadata?: boolean; format?: string };
type Edit = { view: RevisionView; pageId?: string; fileId?: string };

const DEFAULT_LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
};

const content = (ctx: Context, args: InChangeRequest) => changeRequestContent(ctx, args.spaceId, args.changeRequestId, readOptions(args));

/** Runs an edit on a change request and answers what it made. */
async function edit(
  ctx: Context,
  args: InChangeRequest,
  apply: (draft: Draft) => Promise<Edit['pageId'] | void> | Edit['pageId'] | void,
  touches: 'page' | 'file' | 'none',
) {
  const { result, view } = await editChangeRequest(ctx, args.spaceId, args.changeRequestId, apply);
  const id = result ?? undefined;
  return { view, pageId: touches === 'page' ? id : undefined, fileId: touches === 'file' ? id : undefined };
}

export const contentResolvers: Resolvers = {
  Query: {
    changeRequestContent: (_: unknown, args: InChangeRequest, ctx: Context) => content(ctx, args),
    changeRequestPages: async (_: unknown, args: InChangeRequest, ctx: Context) => ({ pages: (await pageTree(ctx, await content(ctx, args))).roots }),
    changeRequestPage: async (_: unknown, args: InChangeRequest & { pageId: string }, ctx: Context) => pageIn(ctx, await content(ctx, args), args.pageId),
    changeRequestFiles: async (_: unknown, args: InChangeRequest & PageArgs, ctx: Context) => listFiles(ctx, await content(ctx, args), args),
    changeRequestFile: async (_: unknown, args: InChangeRequest & { fileId: string }, ctx: Context) => fileIn(ctx, await content(ctx, args), args.fileId),
    changeRequestPDF: async (_: unknown, args: InChangeRequest & { page?: string; only?: boolean }, ctx: Context) =>
      pdfUrl(ctx, await content(ctx, args), args),
    changeRequestPageLinks: async (_: unknown, args: InChangeRequest & PageArgs & { pageId: string }, ctx: Context) =>
      changeRequestPageLinks(ctx, await content(ctx, args), args.pageId, args),
    spaceLinks: async (_: unknown, args: PageArgs & { spaceId: string; status?: string }, ctx: Context) =>
      spaceLinks(ctx, (await ctx.loaders.space.load(args.spaceId))!, args),
    changeRequestFileBacklinks: async (_: unknown, args: InChangeRequest & PageArgs & { fileId: string }, ctx: Context) =>
      fileBacklinks(ctx, await content(ctx, args), args.fileId, args),
  },
  Mutation: {
    createPage: (_: unknown, args: InChangeRequest & { input: unknown }, ctx: Context) => edit(ctx, args, (draft) => createPage(draft, args.input), 'page'),
    updatePage: (_: unknown, args: InChangeRequest & { pageId: string; input: unknown }, ctx: Context) =>
      edit(ctx, args, (draft) => updatePage(draft, args.pageId, args.input), 'page'),
    movePage: (_: unknown, args: InChangeRequest & { pageId: string; input: unknown }, ctx: Context) =>
      edit(ctx, args, (draft) => movePage(draft, args.pageId, args.input), 'page'),
    deletePage: (_: unknown, args: InChangeRequest & { pageId: string }, ctx: Context) => edit(ctx, args, (draft) => deletePage(draft, args.pageId), 'none'),
    uploadFile: (_: unknown, args: InChangeRequest & { input: unknown }, ctx: Context) => edit(ctx, args, (draft) => uploadFile(draft, args.input), 'file'),
    importContent: (_: unknown, args: InChangeRequest & { input: unknown }, ctx: Context) => importWebsite(ctx, args.spaceId, args.changeRequestId, args.input),
    removeFile: (_: unknown, args: InChangeRequest & { fileId: string }, ctx: Context) => edit(ctx, args, (draft) => removeFile(draft, args.fileId), 'none'),
  },
  ContentEdit: {
    changeRequest: (e: Edit) => e.view.changeRequest,
    revision: (e: Edit) => e.view,
    page: async (e: Edit, _: unknown, ctx: Context) => (e.pageId ? (await pageTree(ctx, e.view)).byId.get(e.pageId) : null),
    file: async (e: Edit, _: unknown, ctx: Context) => (e.fileId ? (await fileViews(ctx, e.view)).find((f) => f.entry.file === e.fileId) : null),
  },
  Space: {
    content: (s: SpaceRow, args: { metadata?: boolean; format?: string }, ctx: Context) => spaceContent(ctx, s, readOptions(args)),
  },
  Revision: {
    object: () => 'revision',
    id: (v: RevisionView) => v.revision.id,
    parents: (v: RevisionView) => v.revision.parents,
    type: (v: RevisionView) => v.revision.type,
    createdAt: (v: RevisionView) => v.revision.createdAt,
    pages: async (v: RevisionView, _: unknown, ctx: Context) => (await pageTree(ctx, v)).roots,
    files: (v: RevisionView, _: unknown, ctx: Context) => fileViews(ctx, v),
    reusableContents: () => [],
    urls: ({ revision, space }: RevisionView, _: unknown, ctx: Context) => {
      const published = `${ctx.config.publicUrl}/s/${space.id}`;
      return {
        app: `${ctx.config.appUrl}/o/${space.organization}/s/${space.id}/revisions/${revision.id}`,
        published: space.visibility === 'private' ? null : published,
        public: space.visibility === 'public' ? published : null,
      };
    },
    mergedFrom: (v: RevisionView, _: unknown, ctx: Context) =>
      v.revision.type === 'merge' && v.revision.changeRequest ? ctx.loaders.changeRequest.get(v.revision.changeRequest) : null,
    createdBy: (v: RevisionView, _: unknown, ctx: Context) => (v.revision.createdBy ? ctx.loaders.user.get(v.revision.createdBy) : null),
    page: async (v: RevisionView, { id, path }: { id?: string; path?: string }, ctx: Context) => {
      const tree = await pageTree(ctx, v);
      return (id ? tree.byId.get(id) : path !== undefined ? tree.byPath.get(path.replace(/^\/+|\/+$/g, '')) : null) ?? null;
    },
    file: async (v: RevisionView, { id }: { id: string }, ctx: Context) => (await fileViews(ctx, v)).find((f) => f.entry.file === id) ?? null,
  },
  Page: {
    id: (p: PageView) => p.entry.page,
    kind: () => 'sheet',
    type: () => 'document',
    title: (p: PageView) => p.version.title,
    emoji: (p: PageView) => p.version.emoji,
    icon: (p: PageView) => p.version.icon,
    description: (p: PageView) => p.version.description,
    createdAt: (p: PageView) => p.version.createdAt,
    updatedAt: (p: PageView) => p.version.updatedAt,
    markdown: (p: PageView) => (p.view.options.format === 'markdown' ? p.version.markdown : null),
    document: (p: PageView) => (p.view.options.format === 'document' ? markdownToDocument(p.version.markdown, p.entry.page) : null),
    urls: (p: PageView, _: unknown, ctx: Context) => ({ app: pageAppUrl(ctx.config.appUrl, p.view.space, p.entry.path, p.view.changeRequest) }),
    slug: (p: PageView) => p.entry.slug,
    path: (p: PageView) => p.entry.path,
    documentId: (p: PageView) => p.version.key,
    pages: (p: PageView) => p.pages,
    git: (p: PageView) => (p.view.options.metadata ? { oid: p.version.oid, path: gitPathOf(p) } : null),
    layout: (p: PageView) => ({ ...DEFAULT_LAYOUT, ...(p.version.layout ?? {}) }),
    cover: (p: PageView) => p.version.cover,
    hidden: (p: PageView) => p.version.hidden,
    noIndex: (p: PageView) => p.version.noIndex,
    noRobotsIndex: (p: PageView) => p.version.noRobotsIndex,
    createdBy: (p: PageView, _: unknown, ctx: Context) => (p.version.createdBy ? ctx.loaders.user.get(p.version.createdBy) : null),
    updatedBy: (p: PageView, _: unknown, ctx: Context) => (p.version.updatedBy ? ctx.loaders.user.get(p.version.updatedBy) : null),
  },
  RevisionFile: {
    id: (f: FileView) => f.entry.file,
    name: (f: FileView) => f.file.name,
    contentType: (f: FileView) => f.file.contentType,
    size: (f: FileView) => f.file.size,
    downloadURL: (f: FileView, _: unknown, ctx: Context) => downloadUrl(ctx, f.file),
    dimensions: (f: FileView) => (f.file.width && f.file.height ? { width: f.file.width, height: f.file.height } : null),
    git: (f: FileView) => (f.view.options.metadata ? { oid: f.file.oid, path: gitPathOfFile(f.file) } : null),
  },
  ContentLocation: {
    organization: (l: Location, _: unknown, ctx: Context) => (l.view ? ctx.loaders.organization.load(l.view.space.organization) : null),
    space: (l: Location) => l.view?.space ?? null,
    versionContext: (l: Location) => (l.view?.changeRequest ? { type: 'changeRequest', changeRequest: l.view.changeRequest } : null),
  },
  ContentReferenceUsage: {
    relation: () => 'reference',
    targetReference: (u: LinkUsage) => u.target,
    locationReferences: (u: LinkUsage) => u.locations.map((page) => ({ kind: 'page', view: page.view, page })),
  },
};
