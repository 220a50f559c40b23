import sql, { raw, type Sql } from 'sql-template-tag';
import { columnOf } from '../../db/statements.js';
import { readModel } from '../../kernel/read-models.js';
import { VIEWER } from '../../kernel/request-values.js';
import { spaceRoleRank } from '../../auth/visibility.js';
import { ROLE_COLUMNS } from '../../kernel/policy.js';
import { rank, SPACE_PERMISSION_ROLES } from '../../kernel/roles.js';

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
    mergeRules: [],
  },
  objects: {
    /** Always the organization's (spaces keep no merge rules of their own). */
    mergeRules: { from: () => sql`select 'inherit'::text as type`, fields: { type: () => sql`o.type` } },
    /** What the viewer's role allows (kernel/roles.ts spacePermissionsOf), the role ranked once per space. */
    permissions: {
      from: (alias) => sql`select ${spaceRoleRank(alias, VIEWER)} as rank`,
      fields: {
        ...Object.fromEntries(
          Object.entries(SPACE_PERMISSION_ROLES).map(([permission, needed]) => [permission, () => sql`o.rank >= ${raw(String(rank(needed)))}`]),
        ),
        // Read only when asked: the viewer administers the space's organization.
        installIntegration: (alias: Sql) =>
          sql`exists(select 1 from member m where m.organization_id = ${alias}.organization_id and m.user_id = ${VIEWER} and m.role = 'admin' and not m.disabled)`,
      },
    },
  },
  sql: {
    /** A space without an emoji has '' (the field is non-null). */
    emoji: (alias, em) => sql`coalesce(${alias}.${columnOf(em, 'Space', 'emoji')}, '')`,
  },
});
