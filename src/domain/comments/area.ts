import { commentChecks } from './checks.js';
import { schemaBeside, type Area } from '../../kernel/area.js';
import { Comment, CommentReaction, CommentReply } from './entities.js';
import { commentLoaders } from './loaders.js';
import { commentResolvers } from './resolvers.js';
import { commentRoutes } from './routes.js';
import { PostCommentInput, PostCommentReplyInput, UpdateCommentInput } from './inputs.js';
import { ChangeRequestCommentReads, CommentReads, SpaceCommentReads } from './reads.js';
import { commentLists } from './lists.js';

/** Comments of spaces and change requests, their replies and reactions. */
export const commentsArea = {
  name: 'comments',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { PostCommentInput, PostCommentReplyInput, UpdateCommentInput },
  resolvers: commentResolvers,
  loaders: commentLoaders,
  lists: commentLists,
  entities: [Comment, CommentReply, CommentReaction],
  reads: [CommentReads, SpaceCommentReads, ChangeRequestCommentReads],
  spaceOwned: [Comment, CommentReply, CommentReaction] as never[],
  routes: commentRoutes,
  checks: commentChecks,
} satisfies Area;
