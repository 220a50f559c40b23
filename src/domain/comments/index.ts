/** The public face of the comments area: what other areas and the wiring may use of it. */
export { Comment, CommentReaction, CommentReply } from './entities.js';
export { commentIn, replyIn, threadIn } from './threads.js';
export type { Thread } from './threads.js';
