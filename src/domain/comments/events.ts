import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../events/record.js';
import type { Context } from '../../kernel/context.js';
import type { CommentReplyRow, CommentRow } from './entities.js';
import type { ReactionChange } from './reactions.js';

/*
 * The payloads of comment events: the comment as the contract names its fields, with the resources it
 * refers to as ids. Fields that depend on who looks (permissions, urls) have no place in an event,
 * which many receivers read.
 */

export const commentPayload = (comment: CommentRow) => ({
  object: 'comment',
  id: comment.id,
  postedBy: comment.postedBy,
  postedAt: comment.postedAt.toISOString(),
  editedAt: comment.editedAt?.toISOString() ?? null,
  body: { markdown: comment.markdown },
  target: {
    space: comment.space,
    changeRequest: comment.changeRequest,
    revision: comment.revision,
    page: comment.page,
    node: comment.node,
  },
  status: comment.status,
  resolvedAt: comment.resolvedAt?.toISOString() ?? null,
  resolvedBy: comment.resolvedBy,
});

export const commentReplyPayload = (reply: CommentReplyRow) => ({
  object: 'comment-reply',
  id: reply.id,
  comment: reply.comment,
  postedBy: reply.postedBy,
  postedAt: reply.postedAt.toISOString(),
  editedAt: reply.editedAt?.toISOString() ?? null,
  body: { markdown: reply.markdown },
});

/** The ids a comment event is about. */
export const commentTarget = (comment: CommentRow) => ({ spaceId: comment.space, changeRequestId: comment.changeRequest, commentId: comment.id });

/** The ids a reply event is about. */
export const replyTarget = (comment: CommentRow, reply: CommentReplyRow) => ({ ...commentTarget(comment), commentReplyId: reply.id });

/**
 * The events of one update of a comment, or of one of its replies, recorded in `tx` as each change is
 * made: each payload shows the object as the change left it, with `changes` naming the fields.
 */
export function commentEvents(ctx: Context, tx: EntityManager, comment: CommentRow, reply: CommentReplyRow | null) {
  let current = comment;
  let currentReply = reply;
  const organizationId = comment.organization;
  return {
    edited(fields: { markdown: string; editedAt: Date }) {
      if (currentReply) {
        currentReply = { ...currentReply, ...fields };
        const payload = { ...commentReplyPayload(currentReply), changes: ['body'] };
        recordEvent(ctx, tx, { type: 'comment_reply.edited', organizationId, target: replyTarget(current, currentReply), payload });
        return;
      }
      current = { ...current, ...fields };
      recordEvent(ctx, tx, {
        type: 'comment.edited',
        organizationId,
        target: commentTarget(current),
        payload: { ...commentPayload(current), changes: ['body'] },
      });
    },
    /** The comment was resolved or reopened (a reply in a change request resolves its comment). */
    resolution(fields: Pick<CommentRow, 'status' | 'resolvedAt' | 'resolvedBy'>) {
      current = { ...current, ...fields };
      const payload = { ...commentPayload(current), changes: ['status', 'resolvedAt', 'resolvedBy'] };
      recordEvent(ctx, tx, {
        type: current.status === 'resolved' ? 'comment.resolved' : 'comment.reopened',
        organizationId,
        target: commentTarget(current),
        payload,
      });
    },
    /** The viewer's reactions that really changed: nothing changed, no event. */
    reacted(reactions: ReactionChange) {
      if (reactions.added.length === 0 && reactions.removed.length === 0) return;
      const change = { reactions: { user: ctx.viewer!.user.id, added: reactions.added, removed: reactions.removed }, changes: ['reactions'] };
      if (currentReply) {
        const payload = { ...commentReplyPayload(currentReply), ...change };
        recordEvent(ctx, tx, { type: 'comment_reply.reacted', organizationId, target: replyTarget(current, currentReply), payload });
      } else {
        recordEvent(ctx, tx, { type: 'comment.reacted', organizationId, target: commentTarget(current), payload: { ...commentPayload(current), ...change } });
      }
    },
  };
}
