import { atLeast } from '../../kernel/roles.js';
import type { Context } from '../../kernel/context.js';
import { whenLoaded } from '../../kernel/loader.js';
import type { PageArgs } from '../../kernel/pagination.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { ChangeRequestRow } from '../change-requests/index.js';
import { markdownToDocument } from '../content/index.js';
import { pageTree } from '../content/index.js';
import type { SpaceRow } from '../spaces/index.js';
import type { CommentReplyRow, CommentRow } from './entities.js';
import { threadKey } from './loaders.js';
import { summarize } from './reactions.js';
import {
  deleteComment,
  deleteReply,
  getComment,
  getReply,
  listComments,
  listReplies,
  postComment,
  postReply,
  updateComment,
  updateReply,
  type CommentFilter,
} from './service.js';
import { currentContent } from './threads.js';

type Ids = { spaceId: string; changeRequestId?: string | null };
type OfComment = Ids & { commentId: string };
type OfReply = OfComment & { commentReplyId: string };
type Input = { input: unknown };

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
    path: current?.entry.path ?? comment.pagePath,
    outdated: current?.entry.version !== comment.pageVersion,
  };
}

export const commentResolvers: Resolvers = {
  Query: {
    comments: (_: unknown, { spaceId, changeRequestId, order, status, targetPage, authors, ...args }: Ids & CommentFilter & PageArgs, ctx: Context) =>
      listComments(ctx, { spaceId, changeRequestId }, { order, status, targetPage, authors }, args),
    comment: (_: unknown, ids: OfComment, ctx: Context) => getComment(ctx, ids),
    commentReplies: (_: unknown, { page, limit, ...ids }: OfComment & PageArgs, ctx: Context) => listReplies(ctx, ids, { page, limit }),
    commentReply: (_: unknown, ids: OfReply, ctx: Context) => getReply(ctx, ids),
  },
  Mutation: {
    postComment: (_: unknown, { input, ...ids }: Ids & Input, ctx: Context) => postComment(ctx, ids, input),
    updateComment: (_: unknown, { input, ...ids }: OfComment & Input, ctx: Context) => updateComment(ctx, ids, input),
    deleteComment: (_: unknown, ids: OfComment, ctx: Context) => deleteComment(ctx, ids),
    postCommentReply: (_: unknown, { input, ...ids }: OfComment & Input, ctx: Context) => postReply(ctx, ids, input),
    updateCommentReply: (_: unknown, { input, ...ids }: OfReply & Input, ctx: Context) => updateReply(ctx, ids, input),
    deleteCommentReply: (_: unknown, ids: OfReply, ctx: Context) => deleteReply(ctx, ids),
  },
  Comment: {
    object: () => 'comment',
    postedBy: (c: CommentRow, _: unknown, ctx: Context) => ctx.loaders.user.get(c.postedBy),
    resolvedBy: (c: CommentRow, _: unknown, ctx: Context) => (c.resolvedBy ? ctx.loaders.user.get(c.resolvedBy) : null),
    reactions: (c: CommentRow, _: unknown, ctx: Context) => reactionsTo(ctx, c.id, c.id),
    replies: (c: CommentRow, _: unknown, ctx: Context) => ctx.loaders.replyCounts.get(c.id),
    replyItems: (c: CommentRow, _: unknown, ctx: Context) => ctx.loaders.repliesByComment.get(c.id),
    body,
    target: (c: CommentRow) => c,
    urls: (c: CommentRow, _: unknown, ctx: Context) => ({ location: commentLocation(ctx, c) }),
    permissions: (c: CommentRow, _: unknown, ctx: Context) => permissionsOn(ctx, c.space, c),
  },
  CommentTarget: {
    node: (c: CommentRow) => (c.node ? { id: c.node, preview: c.nodePreview } : null),
    changeRequest: (c: CommentRow) => c.changeRequest,
    review: () => null,
    page: (c: CommentRow, _: unknown, ctx: Context) => targetPage(ctx, c),
    space: (c: CommentRow) => c.space,
    revision: (c: CommentRow) => c.revision,
  },
  CommentReply: {
    object: () => 'comment-reply',
    postedBy: (r: CommentReplyRow, _: unknown, ctx: Context) => ctx.loaders.user.get(r.postedBy),
    reactions: (r: CommentReplyRow, _: unknown, ctx: Context) => reactionsTo(ctx, r.comment, r.id),
    body,
    urls: (r: CommentReplyRow, _: unknown, ctx: Context) =>
      whenLoaded(ctx.loaders.comment.get(r.comment), (c) => ({ location: `${commentLocation(ctx, c!)}/replies/${r.id}` })),
    permissions: (r: CommentReplyRow, _: unknown, ctx: Context) => permissionsOn(ctx, r.space, r),
    comment: (r: CommentReplyRow, _: unknown, ctx: Context) => ctx.loaders.comment.get(r.comment),
  },
  CommentReactionUser: {
    user: (u: { user: string }, _: unknown, ctx: Context) => ctx.loaders.user.get(u.user),
  },
  Space: {
    comments: (s: SpaceRow, _: unknown, ctx: Context) => ctx.loaders.openCommentCounts.get(threadKey(s.id, null)),
  },
  ChangeRequest: {
    comments: (c: ChangeRequestRow, _: unknown, ctx: Context) => ctx.loaders.openCommentCounts.get(threadKey(c.space, c.id)),
  },
};
