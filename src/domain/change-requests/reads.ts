import sql, { empty, raw, type Sql } from 'sql-template-tag';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readModel, readModelExtension } from '../../kernel/read-models.js';
import { keptCount } from '../../db/row-counts.js';
import { columnOf, tableOf } from '../../db/statements.js';

/** The change requests of the space under `alias` (of a status, or all), counted through the index on (space, status); the status is the code's own literal. */
const countOf = (status: 'open' | 'draft' | null) => (alias: Sql, em: EntityManager) => {
  const col = (property: string) => columnOf(em, 'ChangeRequest', property);
  return sql`(select count(*) from ${tableOf(em, 'ChangeRequest')} cr where cr.${col('space')} = ${alias}.${columnOf(em, 'Space', 'id')}${
    status ? sql` and cr.${col('status')} = ${raw(`'${status}'`)}` : empty
  })`;
};

/**
 * A space's change-request counts, read in the statement that reads the space (kernel/read-models.ts),
 * and where the database writes the answer, its page of change requests of a status.
 */
export const SpaceChangeRequestReads = readModelExtension({
  type: 'Space',
  sql: { changeRequests: countOf(null), changeRequestsOpen: countOf('open'), changeRequestsDraft: countOf('draft') },
  pages: {
    /**
     * Its change requests of `status` (open unless stated), newest first (lists.ts changeRequestsOfSpace),
     * counted by the sizes the database keeps. Its resolver requires the read role on the space.
     */
    changeRequestList: {
      many: 'ChangeRequest',
      arguments: ['status'],
      guarded: true,
      readable: true,
      list: (cr, space, _em, { status }) => {
        const listed = typeof status === 'string' ? status : 'open';
        return {
          where: sql`${cr}.space_id = ${space} and ${cr}.status = ${listed}`,
          order: [{ sql: sql`${cr}.number`, desc: true }],
          count: keptCount('change_requests_of_space', space, sql`kept.bucket = ${listed}`),
        };
      },
    },
  },
});

/** How change requests are read (kernel/read-models.ts): fields with resolvers read what they declare. */
export const ChangeRequestReads = readModel({
  type: 'ChangeRequest',
  entity: 'ChangeRequest',
  key: 'id',
  always: ['space', 'organization'],
  needs: {
    object: [],
    etag: [],
    spaceId: [],
    createdBy: ['createdBy'],
    urls: ['number'],
    space: [],
    contributors: ['contributors'],
    comments: [],
    commentList: [],
  },
  sql: {
    object: () => sql`'change-request'::text`,
    spaceId: (alias, em) => sql`${alias}.${columnOf(em, 'ChangeRequest', 'space')}`,
  },
});
