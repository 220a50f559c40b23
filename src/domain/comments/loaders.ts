import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { empty, type Sql } from 'sql-template-tag';
import { columnOf, countsByKey, rowsWhereIn, tableOf } from '../../db/statements.js';
import { batchLoader, partOf, rowLoader } from '../../kernel/loader.js';
import { groupRows } from '../../kernel/row-index.js';
import type { RevisionView } from '../content/index.js';
import { Comment, CommentReaction, CommentReply, type CommentRow } from './entities.js';

/**
 * `spaceId|changeRequestId`: the discussion a comment belongs to, a space's own (no change request
 * id) or a change request's.
 */
export const threadKey = (spaceId: string, changeRequestId: string | null | undefined) => `${spaceId}|${changeRequestId ?? ''}`;
export const threadOf = (comment: Pick<CommentRow, 'space' | 'changeRequest'>) => threadKey(comment.space, comment.changeRequest);

/**
 * The one statement of open-comment counts: rows `key` (a `threadKey`) and `n` for the spaces whose ids
 * the array expression `spaceIds` holds (a parameter, or a column of the site layout's statement,
 * joined to its `unnest` as the layout explains); `spacesOwn` keeps to the spaces' own discussions.
 */
function openCountsOfSpaces(em: EntityManager, spaceIds: Sql, threads: 'every' | 'spacesOwn'): Sql {
  const col = (property: string) => columnOf(em, Comment, property);
  return sql`select c.${col('space')} || '|' || coalesce(c.${col('changeRequest')}, '') as "key", count(*) as "n"
      from unnest(${spaceIds}::text[]) as s(id) join ${tableOf(em, Comment)} c on c.${col('space')} = s.id
      where c.${col('status')} = 'open'${threads === 'spacesOwn' ? sql` and c.${col('changeRequest')} is null` : empty} group by 1`;
}

export function commentLoaders(em: EntityManager) {
  /**
   * Open comments of each discussion (`threadKey`), in one grouped statement for all: a space's
   * own comments, or a change request's.
   */
  const openCommentCounts = batchLoader(async (keys: string[]) => {
    const counts = await countsByKey(em, openCountsOfSpaces(em, sql`${[...new Set(keys.map((key) => key.split('|')[0]))]}`, 'every'));
    return keys.map((key) => counts.get(key) ?? 0);
  });
  /**
   * Each comment's replies and the reactions to it and its replies, read together: the authors and
   * reacting users they name then load in one batch, whatever order the two statements answer in.
   */
  const details = rowLoader(
    async (ids: string[]) => {
      const [replies, reactions] = await Promise.all([
        // Oldest first, ties by id: the order of `commentReplies`.
        rowsWhereIn(em, CommentReply, 'comment', ids, { postedAt: 'asc', id: 'asc' }),
        rowsWhereIn(em, CommentReaction, 'comment', ids, { reactedAt: 'asc' }),
      ]);
      const repliesOf = groupRows(replies, (r) => r.comment);
      const reactionsOf = groupRows(reactions, (r) => r.comment);
      return ids.map((id) => ({ id, replies: repliesOf.get(id) ?? [], reactions: reactionsOf.get(id) ?? [] }));
    },
    (d) => d.id,
  );
  return {
    /** Each discussion's content as it stands now (`threadKey`), read once per request (threads.ts `currentContent`). */
    discussionContents: new Map<string, Promise<RevisionView>>(),
    comment: rowLoader(
      (ids: string[]) => rowsWhereIn(em, Comment, 'id', ids),
      (c) => c.id,
    ),
    openCommentCounts,
    commentReply: rowLoader(
      (ids: string[]) => rowsWhereIn(em, CommentReply, 'id', ids),
      (r) => r.id,
    ),
    repliesByComment: partOf(details, (d) => d.replies, []),
    replyCounts: batchLoader(async (ids: string[]) => {
      const column = columnOf(em, CommentReply, 'comment');
      const counts = await countsByKey(
        em,
        sql`select ${column} as "key", count(*) as "n" from ${tableOf(em, CommentReply)} where ${column} = any(${ids}) group by 1`,
      );
      return ids.map((id) => counts.get(id) ?? 0);
    }),
    /** Reactions to each comment and to its replies, in one statement for all comments. */
    reactionsByComment: partOf(details, (d) => d.reactions, []),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof commentLoaders> {}
}
