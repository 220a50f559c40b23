import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { z } from 'zod';
import { readPage, type SortKey } from '../../db/pages.js';
import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { oneOf, parseInput } from '../../kernel/validation.js';
import { UpdateTeamMembersInput } from './inputs.js';
import { memberOf } from '../members/index.js';
import { Member } from '../organizations/index.js';
import { User } from '../users/index.js';
import { recordEvent } from '../../events/record.js';
import { TEAM_ROLES, TeamMember, type TeamMemberRow, type TeamRole, type TeamRow } from './entities.js';
import { isEmptyChange, teamMembersPayload, teamTarget, type TeamMembersChange } from './events.js';

const TeamRoleInput = z.object({ role: oneOf(TEAM_ROLES).optional() });

/** In the order they were added, then by user id. */
const byAddition: SortKey<TeamMemberRow>[] = [
  { sql: 'm.added_at', time: true, of: (m) => m.addedAt },
  { sql: 'm.user_id', of: (m) => m.user },
];

/** Team members of the team, in the order they were added; one page read in SQL. */
export async function listTeamMembers(ctx: Context, team: TeamRow, args: PageArgs) {
  return readPage(ctx.em, { entity: TeamMember, alias: 'm', where: sql`m.team_id = ${team.id}`, order: byAddition }, args);
}

/**
 * Resolves user ids and e-mail addresses to members of the organization, or a 400 naming the first
 * reference (and its field) that is not one.
 */
async function resolveMembers(tx: EntityManager, organizationId: string, fields: Record<string, string[]>): Promise<Map<string, string>> {
  const all = [...new Set(Object.values(fields).flat())];
  const emails = all.filter((r) => r.includes('@')).map((r) => r.trim().toLowerCase());
  const users = await tx.find(User, { $or: [{ id: { $in: all } }, { email: { $in: emails } }] }, { fields: ['id', 'email'] });
  const members = new Set(
    (await tx.find(Member, { organization: organizationId, user: { $in: users.map((u) => u.id) } }, { fields: ['user'] })).map((m) => m.user),
  );
  const userOf = new Map<string, string>();
  for (const user of users) {
    if (!members.has(user.id)) continue;
    userOf.set(user.id, user.id);
    userOf.set(user.email, user.id);
  }
  const resolved = new Map<string, string>();
  for (const [field, refs] of Object.entries(fields)) {
    for (const ref of refs) {
      const userId = userOf.get(ref.includes('@') ? ref.trim().toLowerCase() : ref);
      if (!userId) throw badRequest(`${field}: "${ref}" is not a member of this organization`);
      resolved.set(ref, userId);
    }
  }
  return resolved;
}

/**
 * Adds, removes and re-roles members of a team in one transaction: all of it or, on any bad entry,
 * nothing. Everyone named must be a member of the organization; a user both added and removed is
 * removed; `memberships` may only name users who are in the team afterwards.
 */
export async function updateTeamMembers(ctx: Context, team: TeamRow, input: unknown): Promise<void> {
  const changes = parseInput(UpdateTeamMembersInput, input);
  const add = changes.add ?? [];
  const remove = changes.remove ?? [];
  const memberships = Object.entries(changes.memberships ?? {});
  await ctx.em.transactional(async (tx) => {
    const userOf = await resolveMembers(tx, team.organization, {
      add,
      remove,
      memberships: memberships.map(([ref]) => ref),
    });
    const removed = new Set(remove.map((ref) => userOf.get(ref)!));
    const current = new Map((await tx.find(TeamMember, { team: team.id })).map((m) => [m.user, m]));
    const roles = new Map<string, TeamRole>();
    for (const [ref, { role }] of memberships) {
      const userId = userOf.get(ref)!;
      if (removed.has(userId)) continue;
      if (!current.has(userId) && !add.some((a) => userOf.get(a) === userId)) throw badRequest(`memberships.${ref}: not a member of the team`);
      roles.set(userId, role);
    }
    const now = ctx.clock.now();
    // Sorted: concurrent updates take the keys' locks in the same order, so they queue instead of deadlocking.
    const added = [...new Set(add.map((ref) => userOf.get(ref)!))].filter((userId) => !removed.has(userId) && !current.has(userId)).sort();
    let inserted: string[] = [];
    if (added.length) {
      // ON CONFLICT DO NOTHING: a user added by a concurrent request is in the team either way (its event says so).
      const rows = await tx
        .createQueryBuilder(TeamMember)
        .insert(added.map((userId) => ({ team: team.id, user: userId, organization: team.organization, role: roles.get(userId) ?? 'member', addedAt: now })))
        .onConflict(['team', 'user'])
        .ignore()
        .returning(['user'])
        .execute('all');
      inserted = (rows as unknown as { user: string }[]).map((row) => row.user).sort();
    }
    const change: TeamMembersChange = {
      added: inserted,
      removed: [...removed].filter((userId) => current.has(userId)).sort(),
      roles: Object.fromEntries([...roles].filter(([userId, role]) => current.get(userId)?.role !== role && !added.includes(userId))),
    };
    if (!isEmptyChange(change)) {
      recordEvent(ctx, tx, {
        type: 'team.members_changed',
        organizationId: team.organization,
        target: teamTarget(team),
        payload: teamMembersPayload(team, change),
      });
    }
    // Also for users just added: a concurrent request may have added them first, with another role.
    for (const role of TEAM_ROLES) {
      const users = [...roles]
        .filter(([, given]) => given === role)
        .map(([userId]) => userId)
        .sort();
      if (users.length) await tx.nativeUpdate(TeamMember, { team: team.id, user: { $in: users } }, { role });
    }
    if (removed.size) await tx.nativeDelete(TeamMember, { team: team.id, user: { $in: [...removed] } });
  });
}

/** Adds a member of the organization to the team, or changes their role in it (`member` by default). */
export async function addTeamMember(ctx: Context, team: TeamRow, userId: string, input: unknown): Promise<TeamMemberRow> {
  const { role } = parseInput(TeamRoleInput, input);
  await memberOf(ctx, team.organization, userId);
  const membership = await ctx.em.transactional(async (em) => {
    const tx = em;
    // INSERT … ON CONFLICT DO NOTHING: two requests adding the same user at the same moment both succeed (one adds them).
    const inserted = await tx
      .createQueryBuilder(TeamMember)
      .insert({ team: team.id, user: userId, organization: team.organization, role: role ?? 'member', addedAt: ctx.clock.now() })
      .onConflict(['team', 'user'])
      .ignore()
      .execute('run');
    const row = await tx.findOneOrFail(TeamMember, { team: team.id, user: userId }, { refresh: true });
    const change: TeamMembersChange = { added: inserted.affectedRows ? [userId] : [], removed: [], roles: {} };
    if (role && row.role !== role) {
      row.role = role;
      change.roles[userId] = role;
    }
    if (!isEmptyChange(change)) {
      recordEvent(ctx, tx, {
        type: 'team.members_changed',
        organizationId: team.organization,
        target: teamTarget(team),
        payload: teamMembersPayload(team, change),
      });
    }
    return row;
  });
  return membership;
}

/** Removes a user from the team; true when they were in it. */
export async function removeTeamMember(ctx: Context, team: TeamRow, userId: string): Promise<boolean> {
  const removed = await ctx.em.transactional(async (tx) => {
    const count = await tx.nativeDelete(TeamMember, { team: team.id, user: userId });
    if (count) {
      const change = { added: [], removed: [userId], roles: {} };
      recordEvent(ctx, tx, {
        type: 'team.members_changed',
        organizationId: team.organization,
        target: teamTarget(team),
        payload: teamMembersPayload(team, change),
      });
    }
    return count > 0;
  });
  return removed;
}
