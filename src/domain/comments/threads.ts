import type { Context } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { changeRequestIn } from '../change-requests/index.js';
import type { ChangeRequestRow } from '../change-requests/index.js';
import { DEFAULT_READ, type RevisionView } from '../content/index.js';
import type { SpaceRow } from '../spaces/index.js';
import type { CommentReplyRow, CommentRow } from './entities.js';
import { threadKey, threadOf } from './loaders.js';

/**
 * Where a discussion lives: a space's main content, or a change request's content. Space comments
 * and change-request comments share every operation, parameterized by this.
 */
export type Thread = { space: SpaceRow; changeRequest: ChangeRequestRow | null };

export const keyOfThread = (thread: Thread) => threadKey(thread.space.id, thread.changeRequest?.id);

/** The discussion of a space (no change request) or of one of its change requests (by id or number); 404 otherwise. */
export async function threadIn(ctx: Context, spaceId: string, changeRequestId?: string | null): Promise<Thread> {
  const space = await ctx.loaders.space.load(spaceId);
  if (!space) throw notFound('Space');
  const changeRequest = changeRequestId ? await changeRequestIn(ctx, spaceId, changeRequestId) : null;
  return { space, changeRequest };
}

/** A comment of the discussion; 404 for a comment of another space or change request. */
export async function commentIn(ctx: Context, thread: Thread, commentId: string): Promise<CommentRow> {
  const comment = await ctx.loaders.comment.load(commentId);
  if (!comment || threadOf(comment) !== keyOfThread(thread)) throw notFound('Comment');
  return comment;
}

/** A reply of the comment; 404 for a reply of another comment. */
export async function replyIn(ctx: Context, comment: CommentRow, replyId: string): Promise<CommentReplyRow> {
  const reply = await ctx.loaders.commentReply.load(replyId);
  if (!reply || reply.comment !== comment.id) throw notFound('Comment reply');
  return reply;
}

/**
 * The content a discussion is about as it stands now (the space's main revision, or the change
 * request's current one), read once per request whatever the number of comments.
 */
export function currentContent(ctx: Context, spaceId: string, changeRequestId: string | null | undefined): Promise<RevisionView> {
  const cache = ctx.loaders.discussionContents;
  const key = threadKey(spaceId, changeRequestId);
  let view = cache.get(key);
  if (!view) {
    view = (async () => {
      const [space, changeRequest] = await Promise.all([
        ctx.loaders.space.load(spaceId),
        changeRequestId ? ctx.loaders.changeRequest.load(changeRequestId) : null,
      ]);
      const revision = await ctx.loaders.revision.load(changeRequest?.revision ?? space!.revision);
      return { space: space!, revision: revision!, changeRequest, options: DEFAULT_READ };
    })();
    cache.set(key, view);
  }
  return view;
}
