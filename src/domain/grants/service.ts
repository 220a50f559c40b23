import { memberKey } from '../../kernel/member-keys.js';
import { raw, type EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { creationOrder } from '../../db/creation-order.js';
import { readPage, type SortKey } from '../../db/pages.js';
import { columnOf, executeReturning, tableOf } from '../../db/statements.js';
import { ROLES, type Role } from '../../kernel/roles.js';
import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { newId } from '../../kernel/ids.js';
import type { LeavingContent } from '../../kernel/area.js';
import { recordEvent } from '../../events/record.js';
import { ContentGrant, type ContentGrantRow } from './entities.js';
import { grantPayload, grantTarget } from './events.js';
import { GrantInput, GranteeInput, InviteToContentInput, SetRoleInput } from './inputs.js';
import { collectionRoleRank, spaceRoleRank } from '../../auth/visibility.js';
import { Member, type MemberRow } from '../organizations/index.js';

/** What a grant is on: one space or one collection of an organization. */
export type GrantTarget = { organization: string } & ({ space: string; collection?: undefined } | { collection: string; space?: undefined });

/** The grantee of an input: a team of the organization or a member of it, or a 400 naming the field. */
async function granteeOf(ctx: Context, organizationId: string, grantee: { team?: string | null; user?: string | null }) {
  if (grantee.team) {
    const team = await ctx.loaders.team.load(grantee.team);
    if (!team || team.organization !== organizationId) throw badRequest(`team: no team "${grantee.team}" in this organization`);
    return { team: team.id, user: null };
  }
  if (!(await ctx.loaders.membership.load(memberKey(organizationId, grantee.user!)))) {
    throw badRequest(`user: no member "${grantee.user}" in this organization`);
  }
  return { team: null, user: grantee.user! };
}

const targetWhere = (target: GrantTarget) => (target.space ? { space: target.space } : { collection: target.collection! });

/** Ranks roles in SQL as `rank` does: the position in ROLES, weakest first. */
const sqlRank = (column: string) => `array_position(array[${ROLES.map((role) => `'${role}'`).join(', ')}]::varchar[], ${column})`;

/**
 * Sets the role of a team or user on a space or collection, creating the grant or replacing its role
 * (`keepStronger`: only raising it), in one INSERT … ON CONFLICT on the grantee's unique key there, so
 * concurrent grants to the same grantee end in one grant. Returns the grant as stored.
 */
export async function putGrant(
  em: EntityManager,
  target: GrantTarget,
  grantee: { team: string | null; user: string | null },
  role: Role,
  now: Date,
  keepStronger = false,
): Promise<ContentGrantRow> {
  const insert = em
    .createQueryBuilder(ContentGrant)
    .insert({
      id: newId(),
      organization: target.organization,
      space: target.space ?? null,
      collection: target.collection ?? null,
      ...grantee,
      role,
      createdAt: now,
    })
    // content_grant_{space,collection}_{team,user}_unique
    .onConflict([target.space ? 'space' : 'collection', grantee.team ? 'team' : 'user']);
  await (
    keepStronger
      ? insert.merge({ role: raw(`case when ${sqlRank('excluded.role')} > ${sqlRank('content_grant.role')} then excluded.role else content_grant.role end`) })
      : insert.merge(['role'])
  ).execute();
  return em.findOneOrFail(ContentGrant, { ...targetWhere(target), ...grantee }, { refresh: true });
}

/** Gives a team or a member a role on a space or collection, replacing the role they were given there before. */
export async function grantRole(ctx: Context, target: GrantTarget, input: unknown): Promise<ContentGrantRow> {
  const { role, ...named } = parseInput(GrantInput, input);
  const grantee = await granteeOf(ctx, target.organization, named);
  return ctx.em.transactional((tx) => putGrantAnnounced(ctx, tx, target, grantee, role));
}

/** `putGrant` with its event, in the caller's transaction. */
async function putGrantAnnounced(ctx: Context, tx: EntityManager, target: GrantTarget, grantee: Grantee, role: Role): Promise<ContentGrantRow> {
  const stored = await putGrant(tx, target, grantee, role, ctx.clock.now());
  recordEvent(ctx, tx, {
    type: 'permission.granted',
    organizationId: target.organization,
    target: grantTarget(target, grantee),
    payload: grantPayload(stored),
  });
  return stored;
}

type Grantee = { team: string | null; user: string | null };

/** Sets the role of a team or member (`grantee`) on a space or collection: a role gives it, null takes it back. */
export async function setRole(ctx: Context, target: GrantTarget, grantee: { user?: string | null; team?: string | null }, input: unknown): Promise<boolean> {
  const { role } = parseInput(SetRoleInput, input);
  const named = parseInput(GranteeInput, grantee);
  if (role === null) return revokeRole(ctx, target, named);
  // The role it already has: nothing to write, nothing to announce.
  const given = await ctx.em.findOne(ContentGrant, { ...targetWhere(target), ...(await granteeOf(ctx, target.organization, named)) }, { refresh: true });
  if (given?.role === role) return false;
  await grantRole(ctx, target, { ...named, role });
  return true;
}

/** Gives members and teams one role on a space or collection, all in one transaction (all or none). */
export async function inviteToContent(ctx: Context, target: GrantTarget, input: unknown): Promise<boolean> {
  const { role, users, teams } = parseInput(InviteToContentInput, input);
  // Resolved together, so that the loaders read every member and team in one batch.
  const grantees: Grantee[] = await Promise.all([
    ...[...new Set(users ?? [])].map((user) => granteeOf(ctx, target.organization, { user })),
    ...[...new Set(teams ?? [])].map((team) => granteeOf(ctx, target.organization, { team })),
  ]);
  await ctx.em.transactional(async (tx) => {
    for (const grantee of grantees) await putGrantAnnounced(ctx, tx, target, grantee, role);
  });
  return true;
}

/** Takes back the role given to a team or a member on a space or collection; true when there was one. */
export async function revokeRole(ctx: Context, target: GrantTarget, input: unknown): Promise<boolean> {
  const grantee = await granteeOf(ctx, target.organization, parseInput(GranteeInput, input));
  const removed = await ctx.em.transactional(async (tx) => {
    const em = tx;
    const on = target.space ? columnOf(em, ContentGrant, 'space') : columnOf(em, ContentGrant, 'collection');
    const to = grantee.team ? columnOf(em, ContentGrant, 'team') : columnOf(em, ContentGrant, 'user');
    // RETURNING: the role taken back is the event's, without reading the grant first.
    const deleted = await executeReturning<{ role: string }>(
      em,
      sql`delete from ${tableOf(em, ContentGrant)} where ${on} = ${target.space ?? target.collection} and ${to} = ${grantee.team ?? grantee.user} returning role`,
    );
    for (const { role } of deleted) {
      const revoked = { ...targetWhere(target), ...grantee, role };
      recordEvent(ctx, tx, {
        type: 'permission.revoked',
        organizationId: target.organization,
        target: grantTarget(target, grantee),
        payload: grantPayload(revoked),
      });
    }
    return deleted.length > 0;
  });
  return removed;
}

/** Grants on a space or collection (to users or teams only with `to`), oldest first; one page read in SQL. */
export async function listGrants(ctx: Context, target: GrantTarget, args: PageArgs & { to?: 'USER' | 'TEAM' | null }) {
  const on = target.space ? sql`g.space_id = ${target.space}` : sql`g.collection_id = ${target.collection!}`;
  const where = args.to === 'USER' ? sql`${on} and g.user_id is not null` : args.to === 'TEAM' ? sql`${on} and g.team_id is not null` : on;
  return readPage(ctx.em, { entity: ContentGrant, alias: 'g', where, order: creationOrder<ContentGrantRow>('g') }, args);
}

/**
 * The enabled members of the organization of a space or collection who have a role on it (`role`: that
 * role only), oldest membership first, each with that role: ranked in SQL by the policy's rules
 * (auth/visibility.ts) for the page, its count and its items in one statement.
 */
export async function listContentPermissions(ctx: Context, target: Pick<GrantTarget, 'space' | 'collection'>, args: PageArgs & { role?: Role | null }) {
  const rank = target.space
    ? sql`(select ${spaceRoleRank(sql`s`, sql`member.user_id`)} from space s where s.id = ${target.space} and s.organization_id = member.organization_id)`
    : sql`(select ${collectionRoleRank(sql`c`, sql`member.user_id`)} from collection c where c.id = ${target.collection!} and c.organization_id = member.organization_id)`;
  const wanted = args.role ? sql`= ${ROLES.indexOf(args.role) + 1}` : sql`> 0`;
  const where = sql`not member.disabled and ${rank} ${wanted}`;
  const order: SortKey<MemberRow>[] = [
    { sql: 'member.joined_at', time: true, of: (row) => row.joinedAt },
    { sql: 'member.user_id', of: (row) => row.user },
  ];
  const page = await readPage(ctx.em, { entity: Member, alias: 'member', where, order, extra: { rank } }, args);
  return { ...page, items: page.items.map((member) => ({ member, role: ROLES[Number((member as MemberRow & { rank: number }).rank) - 1] })) };
}

/**
 * Spaces and collections leaving their organization (transfers) lose the access given on them there:
 * grants to the old organization's teams and members (its content invite links: invites' own hook).
 */
export async function removeGrantsOn(em: EntityManager, content: LeavingContent) {
  for (const [field, ids] of [
    ['space', content.spaces],
    ['collection', content.collections],
  ] as const) {
    if (!ids?.length) continue;
    await em.nativeDelete(ContentGrant, { [field]: { $in: ids } });
  }
}
