import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { empty } from 'sql-template-tag';
import { z } from 'zod';
import { readPage, type SortKey } from '../../db/pages.js';
import { countStatement } from '../../db/row-counts.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, conflict, payloadTooLarge } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { oneOf, parseInput } from '../../kernel/validation.js';
import { newId } from '../../kernel/ids.js';
import { pageNodes } from '../content/index.js';
import { pageTree, type PageTree } from '../content/index.js';
import { recordEvent } from '../../events/record.js';
import { Comment, CommentReply, type CommentReplyRow, type CommentRow } from './entities.js';
import { commentEvents, commentPayload, commentReplyPayload, commentTarget, replyTarget } from './events.js';
import { changeReactions, type ReactionTarget } from './reactions.js';
import { commentIn, currentContent, replyIn, threadIn, type Thread } from './threads.js';
import { PostCommentInput, PostCommentReplyInput, UpdateCommentInput } from './inputs.js';

/** Comment and reply bodies are markdown of at most this many characters (413 beyond). */
export const MAX_BODY_LENGTH = 100_000;
/** The text of a targeted node kept as its preview. */
const PREVIEW_LENGTH = 200;

function parseBody<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const markdown = (input as { body?: { markdown?: unknown } } | null)?.body?.markdown;
  if (typeof markdown === 'string' && markdown.length > MAX_BODY_LENGTH) {
    throw payloadTooLarge(`body.markdown: must be at most ${MAX_BODY_LENGTH} characters`);
  }
  return parseInput(schema, input);
}

const ListFilter = z.object({
  order: oneOf(['asc', 'desc']),
  status: oneOf(['all', 'open', 'resolved']),
  targetPage: z.string().nullish(),
  authors: z.array(z.string()).nullish(),
});

export type CommentFilter = { order?: string | null; status?: string | null; targetPage?: string | null; authors?: string[] | null };
type Ids = { spaceId: string; changeRequestId?: string | null };

/** Comments are discussions of content that exists: a deleted space takes none until restored. */
function assertOpen(thread: Thread) {
  if (thread.space.deletedAt) throw conflict('Space is deleted: restore it first');
}

/** Posting time, then id; both ascending or both descending. */
export const byPosting = <T extends { postedAt: Date; id: string }>(alias: string, desc: boolean): SortKey<T>[] => [
  { sql: `${alias}.posted_at`, desc, time: true, of: (row) => row.postedAt },
  { sql: `${alias}.id`, desc, of: (row) => row.id },
];

/** The comments of a discussion: a change request's, or the space's own (those of no change request). */
const commentsOf = (thread: Thread) =>
  thread.changeRequest ? sql`c.change_request_id = ${thread.changeRequest.id}` : sql`c.space_id = ${thread.space.id} and c.change_request_id is null`;

/** Comments of a discussion matching the filters, newest first by default; one page read in SQL. */
export async function listComments(ctx: Context, ids: Ids, filter: CommentFilter, args: PageArgs) {
  const { order, status, targetPage, authors } = parseInput(ListFilter, { ...filter, order: filter.order ?? 'desc', status: filter.status ?? 'all' });
  const thread = await threadIn(ctx, ids.spaceId, ids.changeRequestId);
  const where = sql`${commentsOf(thread)}
    ${status === 'all' ? empty : sql`and c.status = ${status}`}
    ${targetPage ? sql`and c.page = ${targetPage}` : empty}
    ${authors?.length ? sql`and c.posted_by = any(${authors}::text[])` : empty}`;
  // The database keeps the size of each status's list of a discussion; a page's or authors' part of it is counted.
  const threadKey = thread.changeRequest ? thread.changeRequest.id : `space:${thread.space.id}`;
  const count =
    targetPage || authors?.length ? undefined : countStatement('comments_of_thread', threadKey, status === 'all' ? undefined : sql`kept.bucket = ${status}`);
  const page = await readPage(ctx.em, { entity: Comment, alias: 'c', where, order: byPosting<CommentRow>('c', order === 'desc'), count }, args);
  // Replies reach their comment through the row loader: hand it what the list read.
  for (const comment of page.items) ctx.loaders.comment.remember(comment.id, comment);
  return page;
}

export async function getComment(ctx: Context, ids: Ids & { commentId: string }) {
  return commentIn(ctx, await threadIn(ctx, ids.spaceId, ids.changeRequestId), ids.commentId);
}

/** The page (and node) a new comment targets, as they stand in the discussion's content. */
function targetOf(tree: PageTree, pageId: string | null | undefined, nodeId: string | null | undefined) {
  const page = pageId ? tree.byId.get(pageId) : undefined;
  if (pageId && !page) throw badRequest(`page: no page "${pageId}" in this content`);
  if (!nodeId) return { page, node: null };
  for (const candidate of page ? [page] : tree.all) {
    const node = pageNodes(candidate.entry.page, candidate.version.markdown).find((n) => n.id === nodeId);
    if (node) return { page: candidate, node: { id: node.id, preview: node.text.slice(0, PREVIEW_LENGTH) } };
  }
  throw badRequest(`node: no node "${nodeId}" in ${page ? 'this page' : 'this content'}`);
}

export async function postComment(ctx: Context, ids: Ids, input: unknown): Promise<CommentRow> {
  const fields = parseBody(PostCommentInput, input);
  const thread = await threadIn(ctx, ids.spaceId, ids.changeRequestId);
  assertOpen(thread);
  const view = await currentContent(ctx, thread.space.id, thread.changeRequest?.id ?? null);
  const { page, node } = targetOf(await pageTree(ctx, view), fields.page, fields.node);
  const comment: CommentRow = {
    id: newId(),
    organization: thread.space.organization,
    space: thread.space.id,
    changeRequest: thread.changeRequest?.id ?? null,
    postedBy: ctx.viewer!.user.id,
    postedAt: ctx.clock.now(),
    editedAt: null,
    markdown: fields.body.markdown,
    status: 'open',
    resolvedAt: null,
    resolvedBy: null,
    revision: view.revision.id,
    page: page?.entry.page ?? null,
    pageVersion: page?.entry.version ?? null,
    pagePath: page?.entry.path ?? null,
    node: node?.id ?? null,
    nodePreview: node?.preview ?? null,
  };
  await ctx.em.transactional(async (tx) => {
    await tx.insert(Comment, comment);
    recordEvent(ctx, tx, { type: 'comment.posted', organizationId: comment.organization, target: commentTarget(comment), payload: commentPayload(comment) });
  });
  return comment;
}

/**
 * Sets a comment open or resolved; resolving an open one records when and by whom, reopening clears
 * them. Answers the fields written, or null when the comment already was so (also when a concurrent
 * request got there first: the row's condition is checked again after its lock).
 */
async function resolve(tx: EntityManager, ctx: Context, commentId: string, resolved: boolean, now: Date) {
  const fields = resolved ? { status: 'resolved', resolvedAt: now, resolvedBy: ctx.viewer!.user.id } : { status: 'open', resolvedAt: null, resolvedBy: null };
  const changed = await tx.nativeUpdate(Comment, { id: commentId, status: resolved ? 'open' : 'resolved' }, fields);
  return changed > 0 ? fields : null;
}

type Update = z.infer<typeof UpdateCommentInput>;

/**
 * Applies an update of a comment or a reply (its body, reactions and, for comments and for replies in
 * change requests, the comment's resolution) in one transaction, after every check has passed.
 */
async function applyUpdate(ctx: Context, comment: CommentRow, reply: CommentReplyRow | null, changes: Update) {
  const reactionTarget: ReactionTarget = { organization: comment.organization, space: comment.space, comment: comment.id, reply: reply?.id ?? null };
  const now = ctx.clock.now();
  await ctx.em.transactional(async (em) => {
    const tx = em;
    const events = commentEvents(ctx, tx, comment, reply);
    // The body it has already is no edit (nor is a resolution or reaction it has: those record nothing either).
    if (changes.body && changes.body.markdown !== (reply ?? comment).markdown) {
      const edited = { markdown: changes.body.markdown, editedAt: now };
      const written = reply ? await tx.nativeUpdate(CommentReply, { id: reply.id }, edited) : await tx.nativeUpdate(Comment, { id: comment.id }, edited);
      // Nothing written: deleted meanwhile, nothing to announce.
      if (written > 0) events.edited(edited);
    }
    if (changes.resolved !== undefined && changes.resolved !== null) {
      const resolution = await resolve(tx, ctx, comment.id, changes.resolved, now);
      if (resolution) events.resolution(resolution);
    }
    const reacted = await changeReactions(
      tx,
      reactionTarget,
      ctx.viewer!.user.id,
      { added: changes.addedReactions ?? [], removed: changes.removedReactions ?? [] },
      now,
    );
    events.reacted(reacted);
  });
}

/** Updates a comment; the guard's check `authorOnlyEditsBody` keeps its body to its author. */
export async function updateComment(ctx: Context, ids: Ids & { commentId: string }, input: unknown): Promise<CommentRow> {
  const changes = parseBody(UpdateCommentInput, input);
  const thread = await threadIn(ctx, ids.spaceId, ids.changeRequestId);
  const comment = await commentIn(ctx, thread, ids.commentId);
  assertOpen(thread);
  await applyUpdate(ctx, comment, null, changes);
  return (await ctx.loaders.comment.load(comment.id))!;
}

/** Deletes a comment; the guard's check `authorOrAdmin` lets only its author or a space admin. */
export async function deleteComment(ctx: Context, ids: Ids & { commentId: string }): Promise<boolean> {
  const thread = await threadIn(ctx, ids.spaceId, ids.changeRequestId);
  const comment = await commentIn(ctx, thread, ids.commentId);
  // Replies and reactions go with it (foreign keys on delete cascade). A concurrent delete got there first: no second event.
  await ctx.em.transactional(async (tx) => {
    if ((await tx.nativeDelete(Comment, { id: comment.id })) === 0) return;
    recordEvent(ctx, tx, { type: 'comment.deleted', organizationId: comment.organization, target: commentTarget(comment), payload: commentPayload(comment) });
  });
  return true;
}

/** Replies of a comment, oldest first. */
export async function listReplies(ctx: Context, ids: Ids & { commentId: string }, args: PageArgs) {
  const comment = await getComment(ctx, ids);
  return readPage(ctx.em, { entity: CommentReply, alias: 'r', where: sql`r.comment_id = ${comment.id}`, order: byPosting<CommentReplyRow>('r', false) }, args);
}

export async function getReply(ctx: Context, ids: Ids & { commentId: string; commentReplyId: string }) {
  return replyIn(ctx, await getComment(ctx, ids), ids.commentReplyId);
}

export async function postReply(ctx: Context, ids: Ids & { commentId: string }, input: unknown): Promise<CommentReplyRow> {
  const fields = parseBody(PostCommentReplyInput, input);
  const thread = await threadIn(ctx, ids.spaceId, ids.changeRequestId);
  const comment = await commentIn(ctx, thread, ids.commentId);
  assertOpen(thread);
  const reply: CommentReplyRow = {
    id: newId(),
    organization: comment.organization,
    space: comment.space,
    comment: comment.id,
    postedBy: ctx.viewer!.user.id,
    postedAt: ctx.clock.now(),
    editedAt: null,
    markdown: fields.body.markdown,
  };
  await ctx.em.transactional(async (tx) => {
    await tx.insert(CommentReply, reply);
    recordEvent(ctx, tx, {
      type: 'comment_reply.posted',
      organizationId: reply.organization,
      target: replyTarget(comment, reply),
      payload: commentReplyPayload(reply),
    });
  });
  return reply;
}

/** Updates a reply; the guard's check `authorOnlyEditsBody` keeps its body to its author. */
export async function updateReply(ctx: Context, ids: Ids & { commentId: string; commentReplyId: string }, input: unknown): Promise<CommentReplyRow> {
  const changes = parseBody(UpdateCommentInput, input);
  const thread = await threadIn(ctx, ids.spaceId, ids.changeRequestId);
  const comment = await commentIn(ctx, thread, ids.commentId);
  const reply = await replyIn(ctx, comment, ids.commentReplyId);
  assertOpen(thread);
  if (changes.resolved !== undefined && changes.resolved !== null && !thread.changeRequest) {
    throw badRequest('resolved: only replies in change requests take it; resolve the comment instead');
  }
  await applyUpdate(ctx, comment, reply, changes);
  return (await ctx.loaders.commentReply.load(reply.id))!;
}

/** Deletes a reply; the guard's check `authorOrAdmin` lets only its author or a space admin. */
export async function deleteReply(ctx: Context, ids: Ids & { commentId: string; commentReplyId: string }): Promise<boolean> {
  const thread = await threadIn(ctx, ids.spaceId, ids.changeRequestId);
  const comment = await commentIn(ctx, thread, ids.commentId);
  const reply = await replyIn(ctx, comment, ids.commentReplyId);
  await ctx.em.transactional(async (tx) => {
    if ((await tx.nativeDelete(CommentReply, { id: reply.id })) === 0) return;
    recordEvent(ctx, tx, {
      type: 'comment_reply.deleted',
      organizationId: reply.organization,
      target: replyTarget(comment, reply),
      payload: commentReplyPayload(reply),
    });
  });
  return true;
}
