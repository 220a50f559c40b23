import sql from 'sql-template-tag';
import { columnOf } from '../../db/statements.js';
import { readModel } from '../../kernel/read-models.js';
import { ROLE_COLUMNS } from '../../kernel/policy.js';

/**
 * How spaces are read (kernel/read-models.ts). Fields of other areas that declare nothing (content,
 * comments) read the whole row.
 */
export const SpaceReads = readModel({
  type: 'Space',
  entity: 'Space',
  key: 'id',
  always: ['organization'],
  needs: {
    object: [],
    urls: ['visibility'],
    owningOrganization: [],
    parentCollection: ['parent'],
    permissions: ROLE_COLUMNS,
    viewerRole: ROLE_COLUMNS,
  },
  sql: {
    /** A space without an emoji has '' (the field is non-null). */
    emoji: (alias, em) => sql`coalesce(${alias}.${columnOf(em, 'Space', 'emoji')}, '')`,
  },
});
