import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { ChangeRequest } from '../change-requests/index.js';
import { Organization } from '../organizations/index.js';
import { Space } from '../spaces/index.js';

/**
 * A discussion thread on a space's main content, or on a change request's content when
 * `changeRequest` is set. Where it points (page, node) is recorded as the content stood when it was
 * posted, so that readers can tell whether the page changed since.
 */
export const Comment = defineEntity({
  name: 'Comment',
  indexes: [
    { properties: ['space', 'changeRequest'] },
    // Open-comment counts of spaces (a site's tree, space lists) read only the open comments.
    { properties: ['space', 'status', 'changeRequest'] },
    { properties: ['changeRequest', 'postedAt', 'id'] },
    // A space's own discussion: the comments of no change request.
    {
      name: 'comment_space_id_posted_at_id_index',
      expression: 'create index "comment_space_id_posted_at_id_index" on "comment" ("space_id", "posted_at", "id") where "change_request_id" is null',
    },
  ],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade'),
    changeRequest: () => p.manyToOne(ChangeRequest).mapToPk().deleteRule('cascade').nullable(),
    postedBy: p.string(),
    postedAt: p.datetime(),
    editedAt: p.datetime().nullable(),
    /** The body, as given. */
    markdown: p.text(),
    /** open or resolved. */
    status: p.string(),
    resolvedAt: p.datetime().nullable(),
    resolvedBy: p.string().nullable(),
    /** The revision of the content the comment was posted on. */
    revision: p.string(),
    /** The page targeted, if any, and the key of its PageVersion and its path when posted. */
    page: p.string().nullable(),
    pageVersion: p.string().nullable(),
    pagePath: p.string().nullable(),
    /** The node (top-level block of the page) targeted, if any, and its text when posted. */
    node: p.string().nullable(),
    nodePreview: p.text().nullable(),
  },
});
export type CommentRow = Plain<InferEntity<typeof Comment>>;

/** A reply in a comment's thread; deleted with its comment. */
export const CommentReply = defineEntity({
  name: 'CommentReply',
  indexes: [{ properties: ['comment', 'postedAt', 'id'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade').index(),
    comment: () => p.manyToOne(Comment).mapToPk().deleteRule('cascade'),
    postedBy: p.string(),
    postedAt: p.datetime(),
    editedAt: p.datetime().nullable(),
    markdown: p.text(),
  },
});
export type CommentReplyRow = Plain<InferEntity<typeof CommentReply>>;

/**
 * One user's reaction with one emoji to a comment or a reply (`target`: the id of either). The unique
 * key makes a second identical reaction a no-op, so concurrent reactions keep exact counts.
 */
export const CommentReaction = defineEntity({
  name: 'CommentReaction',
  uniques: [{ properties: ['target', 'user', 'emoji'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade').index(),
    /** The comment of the thread (reactions to its replies included), for loading and deleting them together. */
    comment: () => p.manyToOne(Comment).mapToPk().deleteRule('cascade').index(),
    reply: () => p.manyToOne(CommentReply).mapToPk().deleteRule('cascade').nullable().index(),
    target: p.string(),
    user: p.string(),
    emoji: p.string(),
    reactedAt: p.datetime(),
  },
});
export type CommentReactionRow = Plain<InferEntity<typeof CommentReaction>>;
