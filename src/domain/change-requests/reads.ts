import sql, { empty, raw, type Sql } from 'sql-template-tag';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readModelExtension } from '../../kernel/read-models.js';
import { columnOf, tableOf } from '../../db/statements.js';

/** The change requests of the space under `alias` (of a status, or all), counted through the index on (space, status); the status is the code's own literal. */
const countOf = (status: 'open' | 'draft' | null) => (alias: Sql, em: EntityManager) => {
  const col = (property: string) => columnOf(em, 'ChangeRequest', property);
  return sql`(select count(*) from ${tableOf(em, 'ChangeRequest')} cr where cr.${col('space')} = ${alias}.${columnOf(em, 'Space', 'id')}${
    status ? sql` and cr.${col('status')} = ${raw(`'${status}'`)}` : empty
  })`;
};

/** A space's change-request counts, read in the statement that reads the space (kernel/read-models.ts). */
export const SpaceChangeRequestReads = readModelExtension({
  type: 'Space',
  sql: { changeRequests: countOf(null), changeRequestsOpen: countOf('open'), changeRequestsDraft: countOf('draft') },
});
