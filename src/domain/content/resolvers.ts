import type { Context } from '../../kernel/context.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { applyContentChanges, batchOutcomes, type BatchResult } from './batch.js';
import { createPage, deletePage, editChangeRequest, movePage, updatePage, type Draft } from './editing.js';
import { downloadUrl, removeFile, uploadFile } from './files.js';
import { changeRequestPageLinks, spaceLinks, type LinkTarget, type LinkUsage } from './links.js';
import { markdownToDocument } from './markdown.js';
import { pageMetaLinks } from './meta-links.js';
import { pdfUrl } from './pdf.js';
import { importWebsite } from './website-import.js';
import {
  changeRequestContent,
  documentOfSpace,
  fileBacklinks,
  fileIn,
  listFiles,
  pageAtPath,
  pageIn,
  readOptions,
  spaceContent,
  spaceRevisionContent,
} from './service.js';
import { DEFAULT_LAYOUT } from './layout.js';
import { changeRequestChanges, revisionSemanticChanges } from './semantic-changes.js';
import { fileViews, gitPathOf, gitPathOfFile, pageAppUrl, pageTree, type ChangeRequestView, type FileView, type PageView, type RevisionView } from './views.js';

type InChangeRequest = { spaceId: string; changeRequestId: string; metadata?: boolean | null; format?: string | null };
/** What an edit made (a ContentEdit): the change request's new content, and the page or file it touched. */
type Edit = { view: ChangeRequestView; pageId?: string; fileId?: string };

/** The content a ContentLocation is in: none for a URL. */
const viewOf = (location: LinkTarget) => (location.kind === 'url' ? null : location.view);

const content = (ctx: Context, args: InChangeRequest) => changeRequestContent(ctx, args.spaceId, args.changeRequestId, readOptions(args));
type InSpace = { spaceId: string; revisionId?: string | null; metadata?: boolean | null; format?: string | null };
const ofSpace = (ctx: Context, args: InSpace) => spaceRevisionContent(ctx, args.spaceId, args.revisionId, readOptions(args));

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
    revisionSemanticChanges: (_, args, ctx) => revisionSemanticChanges(ctx, args.spaceId, args.revisionId, args),
    changeRequestChanges: (_, args, ctx) => changeRequestChanges(ctx, args.spaceId, args.changeRequestId, args),
    changeRequestContent: (_, args, ctx) => content(ctx, args),
    changeRequestPages: async (_, args, ctx) => ({ pages: (await pageTree(ctx, await content(ctx, args))).roots }),
    changeRequestPage: async (_, args, ctx) => pageIn(ctx, await content(ctx, args), args.pageId),
    changeRequestFiles: async (_, args, ctx) => listFiles(ctx, await content(ctx, args), args),
    changeRequestFile: async (_, args, ctx) => fileIn(ctx, await content(ctx, args), args.fileId),
    changeRequestPageByPath: async (_, args, ctx) => pageAtPath(ctx, await content(ctx, args), args.pagePath),
    changeRequestPDF: async (_, args, ctx) => pdfUrl(ctx, await content(ctx, args), args),
    spaceContent: (_, args, ctx) => ofSpace(ctx, args),
    spacePages: async (_, args, ctx) => ({ pages: (await pageTree(ctx, await ofSpace(ctx, args))).roots }),
    spacePage: async (_, args, ctx) => pageIn(ctx, await ofSpace(ctx, args), args.pageId),
    spacePageByPath: async (_, args, ctx) => pageAtPath(ctx, await ofSpace(ctx, args), args.pagePath),
    spaceFiles: async (_, args, ctx) => listFiles(ctx, await ofSpace(ctx, args), args),
    spaceFile: async (_, args, ctx) => fileIn(ctx, await ofSpace(ctx, args), args.fileId),
    spacePageDocument: async (_, args, ctx) => {
      const page = await pageIn(ctx, await ofSpace(ctx, args), args.pageId);
      return markdownToDocument(page.version.markdown, page.entry.page);
    },
    spaceDocument: (_, { spaceId, documentId }, ctx) => documentOfSpace(ctx, spaceId, documentId),
    spacePDF: async (_, args, ctx) => pdfUrl(ctx, await ofSpace(ctx, { spaceId: args.spaceId }), args),
    changeRequestPageLinks: async (_, args, ctx) => changeRequestPageLinks(ctx, await content(ctx, args), args.pageId, args),
    spaceLinks: async (_, args, ctx) => spaceLinks(ctx, (await ctx.loaders.space.load(args.spaceId))!, args),
    changeRequestFileBacklinks: async (_, args, ctx) => fileBacklinks(ctx, await content(ctx, args), args.fileId, args),
    spacePageMetaLinks: async (_, args, ctx) => pageMetaLinks(ctx, await ofSpace(ctx, args), args.pageId),
    changeRequestPageMetaLinks: async (_, args, ctx) => pageMetaLinks(ctx, await content(ctx, args), args.pageId),
  },
  Mutation: {
    createPage: (_, args, ctx) => edit(ctx, args, (draft) => createPage(draft, args.input), 'page'),
    updatePage: (_, args, ctx) => edit(ctx, args, (draft) => updatePage(draft, args.pageId, args.input), 'page'),
    movePage: (_, args, ctx) => edit(ctx, args, (draft) => movePage(draft, args.pageId, args.input), 'page'),
    deletePage: (_, args, ctx) => edit(ctx, args, (draft) => deletePage(draft, args.pageId), 'none'),
    uploadFile: (_, args, ctx) => edit(ctx, args, (draft) => uploadFile(draft, args.input), 'file'),
    importContent: (_, args, ctx) => importWebsite(ctx, args.spaceId, args.changeRequestId, args.input),
    removeFile: (_, args, ctx) => edit(ctx, args, (draft) => removeFile(draft, args.fileId), 'none'),
    updateChangeRequestContent: async (_, args, ctx) => {
      const result = await applyContentChanges(ctx, args.spaceId, args.changeRequestId, args.input);
      return args.compat === false ? result : result.view.changeRequest;
    },
  },
  ChangeRequestContentResult: {
    __resolveType: (result) => ('pages' in result && 'view' in result ? 'ChangeRequestContentUpdate' : 'ChangeRequest'),
  },
  ChangeRequestContentUpdate: {
    changeRequest: (r) => r.view.changeRequest,
    changes: (r, _, ctx) => batchOutcomes(ctx, r),
    insertedFiles: async (r, _, ctx) => {
      const files = await fileViews(ctx, r.view);
      return r.insertedFiles.map((id) => files.find((f) => f.entry.file === id)!);
    },
  },
  ContentEdit: {
    changeRequest: (e) => e.view.changeRequest,
    revision: (e) => e.view,
    page: async (e, _, ctx) => (e.pageId ? ((await pageTree(ctx, e.view)).byId.get(e.pageId) ?? null) : null),
    file: async (e, _, ctx) => (e.fileId ? ((await fileViews(ctx, e.view)).find((f) => f.entry.file === e.fileId) ?? null) : null),
  },
  Space: {
    content: (s, args, ctx) => spaceContent(ctx, s, readOptions(args)),
  },
  Revision: {
    object: () => 'revision',
    id: (v) => v.revision.id,
    parents: (v) => v.revision.parents,
    type: (v) => v.revision.type,
    createdAt: (v) => v.revision.createdAt,
    pages: async (v, _, ctx) => (await pageTree(ctx, v)).roots,
    files: (v, _, ctx) => fileViews(ctx, v),
    reusableContents: () => [],
    tags: () => [],
    urls: ({ revision, space }, _, ctx) => {
      const published = `${ctx.config.publicUrl}/s/${space.id}`;
      return {
        app: `${ctx.config.appUrl}/o/${space.organization}/s/${space.id}/revisions/${revision.id}`,
        published: space.visibility === 'private' ? null : published,
        public: space.visibility === 'public' ? published : null,
      };
    },
    mergedFrom: (v, _, ctx) => (v.revision.type === 'merge' && v.revision.changeRequest ? ctx.loaders.changeRequest.get(v.revision.changeRequest) : null),
    createdBy: (v, _, ctx) => (v.revision.createdBy ? ctx.loaders.user.get(v.revision.createdBy) : null),
    page: async (v, { id, path }, ctx) => {
      const tree = await pageTree(ctx, v);
      return (id ? tree.byId.get(id) : path != null ? tree.byPath.get(path.replace(/^\/+|\/+$/g, '')) : null) ?? null;
    },
    file: async (v, { id }, ctx) => (await fileViews(ctx, v)).find((f) => f.entry.file === id) ?? null,
  },
  Page: {
    id: (p) => p.entry.page,
    kind: () => 'sheet',
    type: () => 'document',
    title: (p) => p.version.title,
    emoji: (p) => p.version.emoji ?? null,
    icon: (p) => p.version.icon ?? null,
    description: (p) => p.version.description ?? null,
    createdAt: (p) => p.version.createdAt,
    updatedAt: (p) => p.version.updatedAt,
    markdown: (p) => (p.view.options.format === 'markdown' ? p.version.markdown : null),
    document: (p) => (p.view.options.format === 'document' ? markdownToDocument(p.version.markdown, p.entry.page) : null),
    urls: (p, _, ctx) => ({ app: pageAppUrl(ctx.config.appUrl, p.view.space, p.entry.path, p.view.changeRequest) }),
    slug: (p) => p.entry.slug,
    path: (p) => p.entry.path,
    documentId: (p) => p.version.key,
    pages: (p) => p.pages,
    git: (p) => (p.view.options.metadata ? { oid: p.version.oid, path: gitPathOf(p) } : null),
    layout: (p) => ({ ...DEFAULT_LAYOUT, ...(p.version.layout ?? {}) }),
    cover: (p) => p.version.cover ?? null,
    hidden: (p) => p.version.hidden,
    noIndex: (p) => p.version.noIndex,
    noRobotsIndex: (p) => p.version.noRobotsIndex,
    tags: () => [],
    createdBy: (p, _, ctx) => (p.version.createdBy ? ctx.loaders.user.get(p.version.createdBy) : null),
    updatedBy: (p, _, ctx) => (p.version.updatedBy ? ctx.loaders.user.get(p.version.updatedBy) : null),
  },
  RevisionFile: {
    id: (f) => f.entry.file,
    name: (f) => f.file.name,
    contentType: (f) => f.file.contentType,
    size: (f) => f.file.size,
    downloadURL: (f, _, ctx) => downloadUrl(ctx, f.file),
    dimensions: (f) => (f.file.width && f.file.height ? { width: f.file.width, height: f.file.height } : null),
    git: (f) => (f.view.options.metadata ? { oid: f.file.oid, path: gitPathOfFile(f.file) } : null),
  },
  ContentLocation: {
    organization: (l, _, ctx) => {
      const view = viewOf(l);
      return view ? ctx.loaders.organization.load(view.space.organization) : null;
    },
    space: (l) => viewOf(l)?.space ?? null,
    versionContext: (l) => {
      const changeRequest = viewOf(l)?.changeRequest;
      return changeRequest ? { type: 'changeRequest', changeRequest } : null;
    },
  },
  ContentReferenceUsage: {
    relation: () => 'reference',
    targetReference: (u) => u.target,
    locationReferences: (u) => u.locations.map((page) => ({ kind: 'page', view: page.view, page })),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    ContentEdit: Edit;
    ChangeRequestContentUpdate: BatchResult;
    Revision: RevisionView;
    Page: PageView;
    RevisionFile: FileView;
    ContentLocation: LinkTarget;
    ContentReferenceUsage: LinkUsage;
  }
}
