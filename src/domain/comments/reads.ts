import sql from 'sql-template-tag';
import { readModel, readModelExtension } from '../../kernel/read-models.js';
import { columnOf, tableOf } from '../../db/statements.js';
import { keptCount } from '../../db/row-counts.js';

/** A space's open comments of its own discussion, read in the statement that reads the space (kernel/read-models.ts). */
export const SpaceCommentReads = readModelExtension({
  type: 'Space',
  sql: {
    comments: (alias, em) => {
      const col = (property: string) => columnOf(em, 'Comment', property);
      return sql`(select count(*) from ${tableOf(em, 'Comment')} c where c.${col('space')} = ${alias}.${columnOf(em, 'Space', 'id')} and c.${col('status')} = 'open' and c.${col('changeRequest')} is null)`;
    },
  },
});

/** How comments are read (kernel/read-models.ts): fields with resolvers read the whole row. */
export const CommentReads = readModel({
  type: 'Comment',
  entity: 'Comment',
  key: 'id',
  always: ['space', 'changeRequest'],
  sql: { object: () => sql`'comment'::text` },
});

/** A change request's comments, where the database writes the answer. */
export const ChangeRequestCommentReads = readModelExtension({
  type: 'ChangeRequest',
  pages: {
    /**
     * Its comments, newest first (lists.ts commentsOfChangeRequest), counted by the sizes the database
     * keeps. Its resolver requires the read role on the change request's space.
     */
    commentList: {
      many: 'Comment',
      guarded: true,
      readable: true,
      list: (comment, changeRequest) => ({
        where: sql`${comment}.change_request_id = ${changeRequest}`,
        order: [
          { sql: sql`${comment}.posted_at`, desc: true, time: true },
          { sql: sql`${comment}.id`, desc: true },
        ],
        count: keptCount('comments_of_thread', changeRequest),
      }),
    },
  },
});
