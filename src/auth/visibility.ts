import sql, { empty, join, raw, type Sql } from 'sql-template-tag';
import { keptCount, type Counter } from '../db/row-counts.js';
import type { ContentReach } from '../kernel/policy.js';
import { ROLES } from '../kernel/roles.js';
import type { Viewer } from '../kernel/viewer.js';
import type { NestedSortKey } from '../kernel/read-models.js';
import { VIEWER, VIEWER_TOKEN_ORGANIZATION } from '../kernel/request-values.js';

type ContentKind = 'space' | 'collection';

/**
 * `(a or b …)` of the parts that can select anything, `false` when none can. A part whose array is
 * empty is left out rather than written as `= any('{}')`: the planner reads an OR as a union of index
 * scans to be sorted, so an administrator's list (one part) is read in order through its index and
 * stops at the page, instead of gathering every row of the organization first.
 */
function anyOf(parts: (Sql | null)[]): Sql {
  const present = parts.filter((part): part is Sql => part !== null);
  return present.length === 0 ? sql`false` : sql`(${join(present, ' or ')})`;
}

/** Items the viewer's organization role opens: all of an organization they administer, else what the default-level chain opens to members. */
function reachedByRole(reach: ContentReach, row: Sql): Sql {
  return anyOf([
    reach.everything.length ? sql`${row}.organization_id = any(${reach.everything}::text[])` : null,
    reach.byDefault.length ? sql`(${row}.organization_id = any(${reach.byDefault}::text[]) and ${row}.access_level <> 'none')` : null,
  ]);
}

/** Items a grant to the viewer or one of their teams opens: named, or below a named collection. */
function reachedByGrant(reach: ContentReach, kind: ContentKind, row: Sql): Sql {
  const named = kind === 'space' ? reach.spaces : reach.collections;
  return anyOf([
    named.length ? sql`${row}.id = any(${named}::text[])` : null,
    reach.collections.length ? sql`${row}.ancestors && ${reach.collections}::text[]` : null,
  ]);
}

/**
 * The condition that selects the collections or spaces (table alias `alias`) a user may see: the
 * policy's rules (Policy.contentReach) over the columns the database keeps for them (`access_level`,
 * `ancestors`, Migration20261124120000). An item is visible in an organization the user administers;
 * when the default-level chain opens it to a non-guest member (`access_level` other than `none`); or
 * when a grant to the user or one of their teams names it or a collection above it.
 */
export function visibleContent(reach: ContentReach, kind: ContentKind, alias: string): Sql {
  const row = raw(alias);
  const anyGrant = reach.spaces.length > 0 || reach.collections.length > 0;
  return anyGrant ? sql`(${reachedByRole(reach, row)} or ${reachedByGrant(reach, kind, row)})` : reachedByRole(reach, row);
}

/** A parent of a list of content, for its count: its key in the list, its key among the kept sizes, and its organization. */
export type CountedParent = { key: string; counted: string; organization: string };

/**
 * The exact count of the visible items of each parent's list (rows `key`, `count`), mostly from the
 * sizes the database keeps (row-counts.ts), bucketed by access level: every bucket in an organization the
 * viewer administers, the buckets other than `none` where the default-level chain opens content to them.
 * Items only a grant opens are counted apart, through the grants' indexes: `grantedRows(condition)` is the
 * list's statement counting its rows of parent `k.key` that also meet `condition` (alias `alias`).
 */
export function visibleCounts(
  reach: ContentReach,
  kind: ContentKind,
  counter: Counter,
  parents: readonly CountedParent[],
  alias: string,
  grantedRows: (condition: Sql) => Sql,
): Sql {
  const kept = keptCount(
    counter,
    raw('k.counted'),
    sql`(k.organization = any(${reach.everything}::text[])
    or (k.organization = any(${reach.byDefault}::text[]) and kept.bucket <> 'none'))`,
  );
  const anyGrant = reach.spaces.length > 0 || reach.collections.length > 0;
  const row = raw(alias);
  const granted = anyGrant
    ? sql`case when k.organization = any(${reach.everything}::text[]) then 0
        else (${grantedRows(sql`not ${reachedByRole(reach, row)} and ${reachedByGrant(reach, kind, row)}`)}) end`
    : sql`0`;
  return sql`select k.key as "key", ${kept} + ${granted} as count
    from unnest(${parents.map((p) => p.key)}::text[], ${parents.map((p) => p.counted)}::text[], ${parents.map((p) => p.organization)}::text[])
      as k(key, counted, organization)`;
}

/** A role's rank in SQL (kernel/roles.ts `rank`): 1 for read up to 6 for admin, null for what is no role. */
const rankOf = (role: Sql) => sql`array_position(${raw(`array[${ROLES.map((r) => `'${r}'`).join(', ')}]::text[]`)}, ${role})`;

/**
 * The rank of the role of `user` on the space (table alias `space`), by the rules of Policy.spaceRole:
 * none for someone who is not an enabled member of its organization; admin for an organization admin;
 * else the strongest of what the default-level chain gives a non-guest member (the database keeps the
 * chain's outcome as `access_level`: `member` for the member's own role, `none`, or a role) and of the
 * grants to the user or their teams on the space or a collection above it. 0 for no role.
 */
export function spaceRoleRank(space: Sql, user: Sql): Sql {
  return contentRoleRank('space', space, user);
}

/** The same for a collection (table alias `collection`), by the rules of Policy.collectionRole. */
export function collectionRoleRank(collection: Sql, user: Sql): Sql {
  return contentRoleRank('collection', collection, user);
}

function contentRoleRank(kind: ContentKind, row: Sql, user: Sql): Sql {
  return sql`coalesce((select ${memberContentRoleRank(kind, row, sql`m`)}
    from member m where m.organization_id = ${row}.organization_id and m.user_id = ${user} and not m.disabled), 0)`;
}

/** The viewer's enabled membership rows (alias `m`) in `organization`, within their token's organization (request values). */
const viewerMembershipIn = (organization: Sql) =>
  sql`from member m where m.organization_id = ${organization} and m.user_id = ${VIEWER} and not m.disabled
    and (${VIEWER_TOKEN_ORGANIZATION}::text is null or m.organization_id = ${VIEWER_TOKEN_ORGANIZATION})`;

/**
 * The condition that the request's viewer (request values: a statement compiled once per document) sees
 * the collection or space `row`, as `visibleContent` selects it: they hold a role on it (Policy: a
 * role is non-null exactly where contentReach says the item is visible) through their enabled
 * membership in its organization, within their token's organization. For lists written in the
 * statement that writes the answer, where the reach is not at hand.
 */
export function viewerSeesContent(kind: ContentKind, row: Sql): Sql {
  return sql`exists (select ${viewerMembershipIn(sql`${row}.organization_id`)} and ${memberContentRoleRank(kind, row, sql`m`)} > 0)`;
}

/** The grants (alias `g`) to the member `m` or one of their teams, in its organization, of a role. */
const grantsOfMember = sql`from content_grant g where g.organization_id = m.organization_id and ${rankOf(sql`g.role`)} is not null
  and (g.user_id = m.user_id or g.team_id in (select tm.team_id from team_member tm where tm.organization_id = m.organization_id and tm.user_id = m.user_id))`;

/**
 * The size of a list of collections or spaces that the request's viewer sees (an SQL expression), as
 * `visibleCounts` counts it: from the sizes the database keeps for the list (`counter`, parent
 * `counted`) by access level, with the viewer's membership `m` in `organization` read in SQL; plus the
 * items only a grant opens, counted among the list's rows (`rows(condition)`, alias `v`) only when the
 * viewer holds grants there. For lists written in the statement that writes the answer.
 */
export function viewerVisibleCount(kind: ContentKind, counter: Counter, counted: Sql, organization: Sql, rows: (condition: Sql) => Sql): Sql {
  const v = raw('v');
  const member = (role: Sql) => sql`m.role = any(${raw(`array[${ROLES.map((r) => `'${r}'`).join(', ')}]::text[]`)}) and ${role}`;
  // A guest's role is null: what their role opens is false, not null, so that `not` keeps what grants open.
  const byRole = sql`coalesce(m.role = 'admin' or (${member(sql`${v}.access_level <> 'none'`)}), false)`;
  const named = kind === 'space' ? sql`g.space_id = ${v}.id` : sql`g.collection_id = ${v}.id`;
  const byGrant = sql`exists (select ${grantsOfMember} and (${named} or g.collection_id = any(${v}.ancestors)))`;
  const kept = keptCount(counter, counted, sql`(m.role = 'admin' or (${member(sql`kept.bucket <> 'none'`)}))`);
  return sql`coalesce((select ${kept} + case when m.role = 'admin' or not exists (select ${grantsOfMember}) then 0
      else (${rows(sql`not ${byRole} and ${byGrant}`)}) end
    ${viewerMembershipIn(organization)}), 0)`;
}

/** A list of collections or spaces of some parent: which rows (`where`, of a row alias), their order, and the size the database keeps. */
export type ContentList = { where: (row: Sql) => Sql; order: readonly NestedSortKey[]; counter: Counter; counted: Sql; organization: Sql };

/**
 * The rows of `list` that the request's viewer sees, under the alias `item` of `table`, with their count
 * (kernel/read-models.ts PageRelation): the list the lists' loaders page through `visibleContent` and
 * count through `visibleCounts`, in SQL with the request's values.
 */
export function viewerContentPage(kind: ContentKind, table: Sql, item: Sql, list: ContentList) {
  return {
    where: sql`${list.where(item)} and ${viewerSeesContent(kind, item)}`,
    order: list.order,
    count: viewerVisibleCount(
      kind,
      list.counter,
      list.counted,
      list.organization,
      (condition) => sql`select count(*) from ${table} v where ${list.where(sql`v`)} and ${condition}`,
    ),
  };
}

/**
 * spaceRoleRank for the membership row `member` (the user's enabled membership in the space's
 * organization, or a row of nulls when there is none), as a statement that joins it reads it.
 */
export function memberSpaceRoleRank(space: Sql, member: Sql): Sql {
  return memberContentRoleRank('space', space, member);
}

/**
 * The role rank of the membership row `member` on a space or collection (`row`): the rules Policy.spaceRole
 * and Policy.collectionRole share. The two differ only in what a grant names: the space itself or a
 * collection above it; the collection itself or a collection above it.
 */
function memberContentRoleRank(kind: ContentKind, row: Sql, member: Sql): Sql {
  const named = kind === 'space' ? sql`g.space_id = ${row}.id` : sql`g.collection_id = ${row}.id`;
  return sql`case when ${member}.user_id is null then 0 when ${member}.role = 'admin' then ${raw(String(ROLES.length))} else greatest(
      case when ${rankOf(sql`${member}.role`)} is null then 0
        when ${row}.access_level = 'member' then ${rankOf(sql`${member}.role`)}
        else coalesce(${rankOf(sql`${row}.access_level`)}, 0) end,
      coalesce((select max(${rankOf(sql`g.role`)}) from content_grant g
        where g.organization_id = ${row}.organization_id
          and (g.user_id = ${member}.user_id or g.team_id in (select tm.team_id from team_member tm where tm.organization_id = ${member}.organization_id and tm.user_id = ${member}.user_id))
          and (${named} or g.collection_id = any(${row}.ancestors))), 0)) end`;
}

/**
 * `and <column> = <organization>` when the viewer's token is limited to one organization (empty
 * otherwise): lists of the viewer's memberships read in SQL see that organization only.
 */
export function withinTokenOrganization(viewer: Viewer | null, column: Sql): Sql {
  const organization = viewer?.scope?.organization ?? null;
  return organization === null ? empty : sql` and ${column} = ${organization}`;
}

/** The viewer's enabled memberships (alias `m`) in `organization` within their token's organization, with `condition` besides. */
function viewerMembershipExists(viewer: Viewer | null, organization: Sql, condition: Sql = empty): Sql {
  if (!viewer) return sql`false`;
  return sql`exists (select 1 from member m where m.organization_id = ${organization} and m.user_id = ${viewer.user.id}
    and not m.disabled${condition}${withinTokenOrganization(viewer, sql`m.organization_id`)})`;
}

/**
 * True when the viewer holds a role in the organization (`organization`, an SQL expression): an enabled
 * membership other than a guest's, within their token's organization: what Policy.organizationRole
 * answers with a role (a token's cap never lowers one below read), in SQL.
 */
export const viewerHoldsRoleIn = (viewer: Viewer | null, organization: Sql): Sql =>
  viewerMembershipExists(viewer, organization, sql` and m.role in (${raw(ROLES.map((role) => `'${role}'`).join(', '))})`);

/**
 * True when the viewer is a member of the organization (`organization`, an SQL expression), guests
 * included: an enabled membership within their token's organization, what Policy.isMember answers, in SQL.
 */
export const viewerIsMemberOf = (viewer: Viewer | null, organization: Sql): Sql => viewerMembershipExists(viewer, organization);
