import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { empty } from 'sql-template-tag';
import { z } from 'zod';
import { ROLES, type Role } from '../../kernel/roles.js';
import { visibleContent } from '../../auth/visibility.js';
import { readPage, type SortKey } from '../../db/pages.js';
import { countStatement } from '../../db/row-counts.js';
import type { Context } from '../../kernel/context.js';
import { conflict, notFound } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { oneOf, parseInput, text } from '../../kernel/validation.js';
import { UpdateMemberInput } from './inputs.js';
import { recordEvent } from '../../events/record.js';
import { ContentGrant } from '../grants/index.js';
import { Member, type MemberRow, type MemberEntity } from '../organizations/index.js';
import { memberPayload, memberTarget } from '../organizations/index.js';
import { Space, type SpaceRow } from '../spaces/index.js';
import { spacesByCreation } from '../spaces/index.js';
import { TeamMember } from '../teams/index.js';
import { memberKey } from '../../kernel/member-keys.js';

const MemberFilters = z.object({
  /** A role, or `guest` for members without one. */
  role: oneOf([...ROLES, 'guest']).nullish(),
  /** Part of the display name or e-mail address, case-insensitive. */
  search: text({ max: 512 }).nullish(),
  /** `lastSeenAt` lists only members seen at least once. */
  sort: oneOf(['joinedAt', 'lastSeenAt']).nullish(),
  order: oneOf(['asc', 'desc']).nullish(),
});
/** The filters as the field takes them (`listMembers` checks them). */
export type MemberFilters = { role?: string | null; search?: string | null; sort?: string | null; order?: string | null };

const SpaceOrder = z.object({ order: oneOf(['asc', 'desc']).nullish() });

/** The membership of `userId` in the organization, or 404. */
export async function memberOf(ctx: Context, organizationId: string, userId: string): Promise<MemberEntity> {
  const member = await ctx.loaders.membership.load(memberKey(organizationId, userId));
  if (!member) throw notFound('Member');
  return member;
}

/** By the time the member joined (or was last seen), then by user id; both in `order`. */
function memberOrder(bySeen: boolean, desc: boolean): SortKey<MemberRow>[] {
  return [
    bySeen ? { sql: 'm.last_seen_at', desc, time: true, of: (m) => m.lastSeenAt! } : { sql: 'm.joined_at', desc, time: true, of: (m) => m.joinedAt },
    { sql: 'm.user_id', desc, of: (m) => m.user },
  ];
}

/**
 * Members of an organization matching the filters, most recently joined (or seen) first by default:
 * one page read in SQL (indexes on the organization and either time), the search through the users.
 */
export async function listMembers(ctx: Context, organizationId: string, filters: MemberFilters, args: PageArgs) {
  const { role, search, sort, order } = parseInput(MemberFilters, filters);
  const bySeen = sort === 'lastSeenAt';
  const needle = search?.toLowerCase();
  const where = sql`m.organization_id = ${organizationId}
    ${role ? (role === 'guest' ? sql`and m.role is null` : sql`and m.role = ${role}`) : empty}
    ${bySeen ? sql`and m.last_seen_at is not null` : empty}
    ${needle ? sql`and exists (select 1 from app_user u where u.id = m.user_id and (strpos(lower(u.display_name), ${needle}) > 0 or strpos(u.email, ${needle}) > 0))` : empty}`;
  // The database keeps the number of members by role and whether they were seen; a search's part is counted.
  const buckets = sql`${role ? sql`split_part(kept.bucket, ':', 1) = ${role === 'guest' ? '' : role}` : sql`true`}
    ${bySeen ? sql`and kept.bucket like '%:seen'` : empty}`;
  const count = needle ? undefined : countStatement('members_of_organization', organizationId, buckets);
  return readPage(ctx.em, { entity: Member, alias: 'm', where, order: memberOrder(bySeen, (order ?? 'desc') === 'desc'), count }, args);
}

/**
 * Refuses to leave the organization without an active admin when `userId` stops being one. The
 * organization's admin rows stay locked until the transaction ends, so two admins demoting each other
 * at once cannot both succeed.
 */
export async function assertAnotherAdmin(tx: EntityManager, organizationId: string, userId: string, change: string) {
  const admins = await tx.find(Member, { organization: organizationId, role: 'admin', disabled: false }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!admins.some((a) => a.user !== userId)) throw conflict(`The last admin of the organization cannot be ${change}: make another member admin first`);
}

/** Changes a member's role (null: guest); the last admin cannot be demoted (409). */
export async function updateMember(ctx: Context, organizationId: string, userId: string, input: unknown): Promise<MemberRow> {
  const { role } = parseInput(UpdateMemberInput, input);
  const member = await memberOf(ctx, organizationId, userId);
  if (role === undefined || role === member.role) return member;
  await ctx.em.transactional(async (tx) => {
    if (member.role === 'admin') await assertAnotherAdmin(tx, organizationId, userId, 'demoted');
    await tx.nativeUpdate(Member, { organization: organizationId, user: userId }, { role });
    recordEvent(ctx, tx, {
      type: 'member.updated',
      organizationId,
      target: memberTarget(organizationId, userId),
      payload: { ...memberPayload({ ...member, role }), changes: ['role'] },
    });
  });
  await ctx.em.refresh(member);
  return member;
}

/**
 * Removes a member with their team memberships and the grants given to them in the organization; the
 * last admin cannot be removed (409).
 */
export async function removeMember(ctx: Context, organizationId: string, userId: string): Promise<void> {
  const member = await memberOf(ctx, organizationId, userId);
  await ctx.em.transactional(async (tx) => {
    if (member.role === 'admin') await assertAnotherAdmin(tx, organizationId, userId, 'removed');
    await tx.nativeDelete(TeamMember, { organization: organizationId, user: userId });
    await tx.nativeDelete(ContentGrant, { organization: organizationId, user: userId });
    await tx.nativeDelete(Member, { organization: organizationId, user: userId });
    recordEvent(ctx, tx, { type: 'member.removed', organizationId, target: memberTarget(organizationId, userId), payload: memberPayload(member) });
  });
}

/** Marks a member as one who signs in with the organization's single sign-on. */
export async function markMemberAsSSO(ctx: Context, organizationId: string, userId: string): Promise<MemberRow> {
  const member = await memberOf(ctx, organizationId, userId);
  member.sso = true;
  await ctx.em.flush();
  return member;
}

export type MemberSpace = { permission: Role; space: SpaceRow };

/**
 * A page of the live spaces of the organization that the member can access, each with the member's own
 * role, as far as the caller can see them (an admin sees them all; others never learn of spaces hidden
 * from them): newest first by default. Both filters are the policy's, in SQL.
 */
export async function listMemberSpaces(ctx: Context, organizationId: string, userId: string, filters: { order?: string | null }, args: PageArgs) {
  const { order } = parseInput(SpaceOrder, filters);
  await memberOf(ctx, organizationId, userId);
  const member = ctx.policy.forUser(userId);
  const [theirs, mine] = await Promise.all([member.contentReach([organizationId]), ctx.policy.contentReach([organizationId])]);
  const page = await readPage<SpaceRow>(
    ctx.em,
    {
      entity: Space,
      alias: 's',
      where: sql`s.organization_id = ${organizationId} and s.deleted_at is null and ${visibleContent(theirs, 'space', 's')} and ${visibleContent(mine, 'space', 's')}`,
      order: spacesByCreation.map((key) => ({ ...key, desc: (order ?? 'desc') === 'desc' })),
    },
    args,
  );
  const roles = await Promise.all(page.items.map((space) => member.spaceRole(space)));
  return { ...page, items: page.items.map((space, i): MemberSpace => ({ permission: roles[i]!, space })) };
}
