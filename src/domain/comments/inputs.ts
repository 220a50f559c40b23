import { z } from 'zod';
import { inputType, shownAs } from '../../kernel/input-types.js';
import { reactionList } from './reactions.js';

/** `{markdown}`: required and non-empty; too long is 413, not 400 (the service checks the length first). */
const body = inputType(
  'CommentBodyInput',
  z
    .object({
      markdown: z.string({ error: 'must be a string' }).refine((s) => s.trim().length > 0, { error: 'must not be empty' }),
    })
    .describe('A body: markdown, non-empty, at most 100,000 characters (413 beyond).'),
);

export const PostCommentInput = z.object({
  page: shownAs('ID', z.string()).optional().describe("A page of the space's (or change request's) content."),
  node: shownAs('ID', z.string()).optional().describe("A node of that content: the `key` of a top-level block in a page's document form."),
  body,
});

export const PostCommentReplyInput = z.object({ body });

export const UpdateCommentInput = z
  .object({
    resolved: z.boolean().optional(),
    body: body.optional(),
    addedReactions: reactionList.optional(),
    removedReactions: reactionList.optional(),
  })
  .describe(
    "`body` only by its author; `resolved` resolves (true) or reopens (false) the comment, on a reply only\nin change requests; reactions (emojis, at most 20 each) are the caller's own.",
  );
