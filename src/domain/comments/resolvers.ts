import { atLeast } from '../../kernel/roles.js';
import type { Context } from '../../kernel/context.js';
import { found, whenLoaded } from '../../kernel/loader.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { markdownToDocument } from '../content/index.js';
import { pageTree } from '../content/index.js';
import { Comment, CommentReply, type CommentReplyRow, type CommentRow } from './entities.js';
import { etagOf, writeIfMatch, type ConditionalResource } from '../../graphql/conditional-writes.js';
import { threadKey } from './loaders.js';
import { summarize, type ReactionUser } from './reactions.js';
import { deleteComment, deleteReply, getComment, getReply, listComments, listReplies, postComment, postReply, updateComment, updateReply } from './service.js';
import { currentContent } from './threads.js';
import { listCommenters } from './commenters.js';
import { readAlong } from '../../kernel/read-models.js';

/** The API address of a comment, in its space or its change request. */
function commentLocation(ctx: Context, comment: CommentRow): string {
  const parent = comment.changeRequest ? `spaces/${comment.space}/change-requests/${comment.changeRequest}` : `spaces/${comment.space}`;
  return `${ctx.config.publicUrl}/v1/${parent}/comments/${comment.id}`;
}

const body = (row: { markdown: string }, { format }: { format?: string | null }) =>
  format === 'document' ? { document: markdownToDocument(row.markdown) } : { markdown: row.markdown };

const reactionsTo = (ctx: Context, commentId: string, targetId: string) =>
  whenLoaded(ctx.loaders.reactionsByComment.get(commentId), (reactions) => summarize(reactions, targetId));

/** What the caller may do with a comment or reply of the space. */
function permissionsOn(ctx: Context, spaceId: string, row: { postedBy: string }) {
  const isAuthor = row.postedBy === ctx.viewer?.user.id;
  return whenLoaded(ctx.loaders.space.get(spaceId), (space) =>
    whenLoaded(ctx.policy.spaceRole(space!), (role) => ({
      view: atLeast(role, 'read'),
      edit: isAuthor && atLeast(role, 'comment'),
      reply: atLeast(role, 'comment'),
      react: atLeast(role, 'comment'),
      delete: (isAuthor && atLeast(role, 'comment')) || atLeast(role, 'admin'),
    })),
  );
}

/** The targeted page as it stands now; when it left the content, as it was when the comment was posted. */
async function targetPage(ctx: Context, comment: CommentRow) {
  if (!comment.page) return null;
  const view = await currentContent(ctx, comment.space, comment.changeRequest);
  const current = (await pageTree(ctx, view)).byId.get(comment.page);
  const version = current ? current.version : await ctx.loaders.pageVersion.load(comment.pageVersion!);
  if (!version) return null;
  return {
    id: comment.page,
    title: version.title,
    emoji: version.emoji,
    icon: version.icon,
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
    // Set with `page` when the comment was posted.
    path: current?.entry.path ?? comment.pagePath!,
    outdated: current?.entry.version !== comment.pageVersion,
  };
}

type CommentIds = { spaceId: string; changeRequestId?: string | null; commentId: string; commentReplyId?: string };
/** A comment's (or with `commentReplyId`, a reply's) GET: in its space's discussion, or in its change request's. */
function commentRepresentation({ spaceId, changeRequestId, commentId, commentReplyId }: CommentIds): [string, Record<string, unknown>] {
  const variables = { spaceId, commentId, ...(changeRequestId ? { changeRequestId } : {}), ...(commentReplyId ? { commentReplyId } : {}) };
  return [`getComment${commentReplyId ? 'Reply' : ''}${changeRequestId ? 'InChangeRequest' : 'InSpace'}`, variables];
}
/** A comment or a reply as conditional writes name it (graphql/conditional-writes.ts). */
function commentResource(ids: CommentIds): ConditionalResource {
  const [representation, variables] = commentRepresentation(ids);
  return { representation, variables, row: ids.commentReplyId ? [CommentReply, ids.commentReplyId] : [Comment, ids.commentId] };
}

export const commentResolvers: Resolvers = {
  Query: {
    comments: (_, { spaceId, changeRequestId, order, status, targetPage, authors, ...args }, ctx) =>
      listComments(ctx, { spaceId, changeRequestId }, { order, status, targetPage, authors }, args),
    comment: (_, ids, ctx) => getComment(ctx, ids),
    commentReplies: (_, { page, limit, ...ids }, ctx) => listReplies(ctx, ids, { page, limit }),
    commentReply: (_, ids, ctx) => getReply(ctx, ids),
    commenters: (_, { spaceId, changeRequestId, ...args }, ctx) => listCommenters(ctx, spaceId, changeRequestId, args),
  },
  Mutation: {
    postComment: (_, { input, ...ids }, ctx) => postComment(ctx, ids, input),
    updateComment: (_, { input, ifMatch, ...ids }, ctx) => writeIfMatch(ctx, ifMatch, commentResource(ids), (ctx) => updateComment(ctx, ids, input)),
    deleteComment: (_, { ifMatch, ...ids }, ctx) => writeIfMatch(ctx, ifMatch, commentResource(ids), (ctx) => deleteComment(ctx, ids)),
    postCommentReply: (_, { input, ...ids }, ctx) => postReply(ctx, ids, input),
    updateCommentReply: (_, { input, ifMatch, ...ids }, ctx) => writeIfMatch(ctx, ifMatch, commentResource(ids), (ctx) => updateReply(ctx, ids, input)),
    deleteCommentReply: (_, { ifMatch, ...ids }, ctx) => writeIfMatch(ctx, ifMatch, commentResource(ids), (ctx) => deleteReply(ctx, ids)),
  },
  Comment: {
    object: () => 'comment',
    etag: (c, _, ctx) => etagOf(ctx, ...commentRepresentation({ spaceId: c.space, changeRequestId: c.changeRequest, commentId: c.id })),
    postedBy: (c, _, ctx) => found(ctx.loaders.user.get(c.postedBy), 'User'),
    resolvedBy: (c, _, ctx) => (c.resolvedBy ? ctx.loaders.user.get(c.resolvedBy) : null),
    reactions: (c, _, ctx) => reactionsTo(ctx, c.id, c.id),
    replies: (c, _, ctx) => ctx.loaders.replyCounts.get(c.id),
    replyItems: (c, _, ctx) => ctx.loaders.repliesByComment.get(c.id),
    body,
    target: (c) => c,
    urls: (c, _, ctx) => ({ location: commentLocation(ctx, c) }),
    permissions: (c, _, ctx) => permissionsOn(ctx, c.space, c),
  },
  CommentTarget: {
    node: (c) => (c.node ? { id: c.node, preview: c.nodePreview } : null),
    changeRequest: (c) => c.changeRequest ?? null,
    review: () => null,
    page: (c, _, ctx) => targetPage(ctx, c),
    space: (c) => c.space,
    revision: (c) => c.revision,
  },
  CommentReply: {
    object: () => 'comment-reply',
    etag: async (r, _, ctx) => {
      const comment = await ctx.loaders.comment.get(r.comment);
      return etagOf(ctx, ...commentRepresentation({ spaceId: r.space, changeRequestId: comment?.changeRequest, commentId: r.comment, commentReplyId: r.id }));
    },
    postedBy: (r, _, ctx) => found(ctx.loaders.user.get(r.postedBy), 'User'),
    reactions: (r, _, ctx) => reactionsTo(ctx, r.comment, r.id),
    body,
    urls: (r, _, ctx) => whenLoaded(ctx.loaders.comment.get(r.comment), (c) => ({ location: `${commentLocation(ctx, c!)}/replies/${r.id}` })),
    permissions: (r, _, ctx) => permissionsOn(ctx, r.space, r),
    comment: (r, _, ctx) => found(ctx.loaders.comment.get(r.comment), 'Comment'),
  },
  CommentReactionUser: {
    user: (u, _, ctx) => found(ctx.loaders.user.get(u.user), 'User'),
  },
  Space: {
    comments: (s, _, ctx, info) => readAlong(s, info, () => ctx.loaders.openCommentCounts.get(threadKey(s.id, null))),
  },
  ChangeRequest: {
    comments: (c, _, ctx) => ctx.loaders.openCommentCounts.get(threadKey(c.space, c.id)),
    commentList: async (c, args, ctx) => {
      await ctx.policy.requireOnHeld('SPACE', c.space, 'read', 'reading its comments');
      const page = await ctx.lists.commentsOfChangeRequest.load({ parent: c, args });
      // Replies reach their comment through the row loader: hand it what the list read.
      for (const comment of page.items) ctx.loaders.comment.remember(comment.id, comment);
      return page;
    },
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Comment: CommentRow;
    /** `Comment.target` answers the comment itself. */
    CommentTarget: CommentRow;
    CommentReply: CommentReplyRow;
    CommentReactionUser: ReactionUser;
  }
}
