import type { Context } from '../../kernel/context.js';
import { forbidden } from '../../kernel/errors.js';
import type { GuardCheck, GuardedRequest } from '../../kernel/checks.js';
import { atLeast } from '../../kernel/roles.js';
import { commentIn, replyIn, threadIn, type Thread } from './threads.js';

const viewerId = (ctx: Context) => ctx.viewer!.user.id;

/** The comment, or the reply when the field names one (`commentReplyId`), of the discussion in the request; 404 as the service answers. */
async function commentOrReply(ctx: Context, { id, args }: GuardedRequest): Promise<{ thread: Thread; row: { postedBy: string }; what: string }> {
  const thread = await threadIn(ctx, id, args.changeRequestId as string | null | undefined);
  const comment = await commentIn(ctx, thread, args.commentId as string);
  if (typeof args.commentReplyId !== 'string') return { thread, row: comment, what: 'comment' };
  return { thread, row: await replyIn(ctx, comment, args.commentReplyId), what: 'reply' };
}

/** The checks that comment and reply fields name in their guards. */
export const commentChecks = {
  authorOnlyEditsBody: {
    description: 'a new body only by its author',
    on: ['SPACE'],
    reads: ['changeRequestId', 'commentId', 'input.body'],
    async run(ctx, request) {
      if (!(request.args.input as { body?: unknown }).body) return;
      const { row, what } = await commentOrReply(ctx, request);
      if (row.postedBy !== viewerId(ctx)) throw forbidden(`body: only its author may edit a ${what}`);
    },
  },
  authorOrAdmin: {
    description: 'its author, or admin on the space',
    on: ['SPACE'],
    reads: ['changeRequestId', 'commentId'],
    async run(ctx, request) {
      const { thread, row, what } = await commentOrReply(ctx, request);
      if (row.postedBy === viewerId(ctx)) return;
      if (!atLeast(await ctx.policy.spaceRole(thread.space), 'admin')) throw forbidden(`Only its author or a space admin may delete a ${what}`);
    },
  },
} satisfies Record<string, GuardCheck>;
