import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw, type Sql } from 'sql-template-tag';
import { columnOf, tableOf } from '../../db/statements.js';
import { rankedObject, readModel, readModelExtension } from '../../kernel/read-models.js';
import { APP_URL, PUBLIC_URL, VIEWER, VIEWER_TOKEN_ORGANIZATION, VIEWER_TOKEN_ROLE_RANK } from '../../kernel/request-values.js';
import { memberSpaceRoleRank, viewerContentPage, type ContentList } from '../../auth/visibility.js';
import { ROLE_COLUMNS } from '../../kernel/policy.js';
import { rank, ROLES, SPACE_PERMISSION_ROLES } from '../../kernel/roles.js';

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
    etag: [],
    urls: ['visibility'],
    owningOrganization: [],
    parentCollection: ['parent'],
    permissions: ROLE_COLUMNS,
    viewerRole: ROLE_COLUMNS,
    mergeRules: [],
  },
  objects: {
    /** Where the space is: in the API, in the app, and published while it is not private (the resolver's rule, in SQL). */
    urls: {
      fields: {
        location: (alias) => sql`${PUBLIC_URL}::text || '/v1/spaces/' || ${alias}.id`,
        app: (alias) => sql`${APP_URL}::text || '/o/' || ${alias}.organization_id || '/s/' || ${alias}.id`,
        published: (alias) => sql`case when ${alias}.visibility <> 'private' then ${PUBLIC_URL}::text || '/s/' || ${alias}.id end`,
        public: (alias) => sql`case when ${alias}.visibility = 'public' then ${PUBLIC_URL}::text || '/s/' || ${alias}.id end`,
        icon: () => sql`null::text`,
      },
    },
    /** Always the organization's (spaces keep no merge rules of their own). */
    mergeRules: { fields: { type: () => sql`'inherit'::text` } },
    /** What the viewer's role allows (kernel/roles.ts spacePermissionsOf), the role ranked once per space, through the token's cap. */
    permissions: rankedObject(
      (alias, _em, joined) => sql`least(${memberSpaceRoleRank(alias, joined('viewerMembership'))}, ${VIEWER_TOKEN_ROLE_RANK}::int)`,
      [0, ...ROLES.map((role) => rank(role))],
      Object.fromEntries(Object.entries(SPACE_PERMISSION_ROLES).map(([permission, needed]) => [permission, () => sql`o.rank >= ${raw(String(rank(needed)))}`])),
    ),
  },
  joins: {
    /** The viewer's enabled membership in the space's organization, if any (none outside their token's organization). */
    viewerMembership: {
      entity: 'Member',
      column: 'organization',
      value: (space) => sql`${space}.organization_id`,
      where: (member) =>
        sql`${member}.user_id = ${VIEWER} and not ${member}.disabled and (${VIEWER_TOKEN_ORGANIZATION}::text is null or ${member}.organization_id = ${VIEWER_TOKEN_ORGANIZATION})`,
    },
  },
  sql: {
    object: () => sql`'space'::text`,
    /** A space without an emoji has '' (the field is non-null). */
    emoji: (alias, em) => sql`coalesce(${alias}.${columnOf(em, 'Space', 'emoji')}, '')`,
  },
});

/** The live spaces the viewer sees among those the list selects, as lists.ts `visibleSpaces` pages and counts them. */
const visibleSpaces = (em: EntityManager, item: Sql, list: ContentList) =>
  viewerContentPage('space', tableOf(em, 'Space'), item, { ...list, where: (row) => sql`${list.where(row)} and ${row}.deleted_at is null` });

/** The spaces of collections and organizations, where the database writes the answer (filtered for the viewer in SQL). */
export const SpaceListReads = [
  readModelExtension({
    type: 'Collection',
    pages: {
      /** Live spaces directly in the collection that the viewer can see, by position (the spacesOfCollection list). */
      spaces: {
        many: 'Space',
        readable: true,
        list: (s, collection, em) =>
          visibleSpaces(em, s, {
            where: (row) => sql`${row}.parent_id = ${collection}`,
            order: [{ sql: sql`${s}.position` }, { sql: sql`${s}.id` }],
            counter: 'spaces_of_collection',
            counted: collection,
            organization: sql`(select p.organization_id from ${tableOf(em, 'Collection')} p where p.id = ${collection})`,
          }),
      },
    },
  }),
  readModelExtension({
    type: 'Organization',
    pages: {
      /** Live spaces of the organization that the viewer can see, oldest first (the spacesOfOrganization list). */
      spaces: {
        many: 'Space',
        readable: true,
        list: (s, organization, em) =>
          visibleSpaces(em, s, {
            where: (row) => sql`${row}.organization_id = ${organization}`,
            order: [{ sql: sql`${s}.created_at`, time: true }, { sql: sql`${s}.id` }],
            counter: 'spaces_of_organization',
            counted: organization,
            organization,
          }),
      },
    },
  }),
];
