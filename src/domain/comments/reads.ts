import sql from 'sql-template-tag';
import { readModelExtension } from '../../kernel/read-models.js';
import { columnOf, tableOf } from '../../db/statements.js';

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
