import type { CommentReplyRow, CommentRow } from './entities.js';

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
