import { memberKey } from '../../kernel/member-keys.js';
import sql, { empty, type Sql } from 'sql-template-tag';
import { creationOrder } from '../../db/creation-order.js';
import { readPage } from '../../db/pages.js';
import { readRows } from '../../db/statements.js';
import { containsIgnoringCase } from '../../db/text-match.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import type { Page, PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { CreateTeamInput, UpdateTeamInput } from './inputs.js';
import { newId } from '../../kernel/ids.js';
import { memberOf } from '../members/index.js';
import { Member } from '../organizations/index.js';
import { applyChanges } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { Team, TeamMember, type TeamRole, type TeamRow, type TeamEntity } from './entities.js';
import { teamPayload, teamTarget } from './events.js';

export type TeamFilters = { owner?: string | null; title?: string | null };

/** `and` the team's title contains `title` (any case), when given. */
const titleFilter = (title: string | null | undefined) => (title ? sql`and ${containsIgnoringCase('t.title', title)}` : empty);

/** One page of the organization's teams that `where` selects, oldest first. */
const teamsPage = (ctx: Context, organizationId: string, where: Sql, args: PageArgs) =>
  readPage(ctx.em, { entity: Team, alias: 't', where: sql`t.organization_id = ${organizationId} ${where}`, order: creationOrder<TeamRow>('t') }, args);

/** The team `teamId` of the organization, or 404. */
export async function teamOf(ctx: Context, organizationId: string, teamId: string): Promise<TeamEntity> {
  const team = await ctx.loaders.team.load(teamId);
  if (!team || team.organization !== organizationId) throw notFound('Team');
  return team;
}

/**
 * Teams of an organization, oldest first. `owner` keeps the teams that member can manage: all of them
 * for an organization admin, else those they own; `title` keeps titles containing it (any case).
 */
export async function listTeams(ctx: Context, organizationId: string, filters: TeamFilters, args: PageArgs) {
  let managed: Sql = empty;
  if (filters.owner) {
    const owner = await ctx.loaders.membership.load(memberKey(organizationId, filters.owner));
    if (!owner) throw badRequest(`owner: no member "${filters.owner}" in this organization`);
    managed = managedBy(await ctx.policy.forUser(filters.owner).organizationRole(organizationId), filters.owner);
  }
  return teamsPage(ctx, organizationId, sql`${managed} ${titleFilter(filters.title)}`, args);
}

/**
 * `and` the team is one the user manages, as Policy.teamRole decides it (the `admin` role on a team):
 * every team for an organization admin, none for a disabled member, else the teams they own.
 */
function managedBy(organizationRole: string | null | undefined, userId: string): Sql {
  if (organizationRole === 'admin') return empty;
  if (organizationRole === undefined) return sql`and false`;
  return sql`and exists (select 1 from team_member o where o.team_id = t.id and o.user_id = ${userId} and o.role = 'owner')`;
}

/** Creates a team; its initial members must be members of the organization (400 naming the first that is not). */
export async function createTeam(ctx: Context, organizationId: string, input: unknown): Promise<TeamRow> {
  const { title, members } = parseInput(CreateTeamInput, input);
  const userIds = [...new Set(members ?? [])];
  const found = new Set((await ctx.em.find(Member, { organization: organizationId, user: { $in: userIds } })).map((m) => m.user));
  const stranger = userIds.find((id) => !found.has(id));
  if (stranger !== undefined) throw badRequest(`members: no member "${stranger}" in this organization`);
  const now = ctx.clock.now();
  const team = ctx.em.create(Team, { id: newId(), organization: organizationId, title, createdAt: now });
  for (const user of userIds) {
    ctx.em.create(TeamMember, { team: team.id, user, organization: organizationId, role: 'member', addedAt: now });
  }
  recordEvent(ctx, ctx.em, { type: 'team.created', organizationId, target: teamTarget(team), payload: { ...teamPayload(team), initialMembers: userIds } });
  await ctx.em.flush();
  return team;
}

export async function renameTeam(ctx: Context, organizationId: string, teamId: string, input: unknown): Promise<TeamRow> {
  const { title } = parseInput(UpdateTeamInput, input);
  const team = await teamOf(ctx, organizationId, teamId);
  const changes = applyChanges(team, { title });
  if (changes.length) recordEvent(ctx, ctx.em, { type: 'team.updated', organizationId, target: teamTarget(team), payload: { ...teamPayload(team), changes } });
  await ctx.em.flush();
  return team;
}

/** Deletes a team; its memberships and grants go with it (ON DELETE CASCADE). */
export async function deleteTeam(ctx: Context, organizationId: string, teamId: string): Promise<void> {
  const team = await teamOf(ctx, organizationId, teamId);
  await ctx.em.transactional(async (tx) => {
    // Of two deletions at once, only the one that removed the row announces it.
    if (!(await tx.nativeDelete(Team, { id: teamId }))) return;
    recordEvent(ctx, tx, { type: 'team.deleted', organizationId, target: teamTarget(team), payload: teamPayload(team) });
  });
}

export type MemberTeam = { team: TeamRow; member: { role: TeamRole } };

/** The teams a member belongs to, with their role in each, oldest team first; `title` as in listTeams. */
export async function listMemberTeams(
  ctx: Context,
  organizationId: string,
  userId: string,
  filters: { title?: string | null },
  args: PageArgs,
): Promise<Page<MemberTeam>> {
  await memberOf(ctx, organizationId, userId);
  const inTeam = sql`and exists (select 1 from team_member m where m.team_id = t.id and m.user_id = ${userId})`;
  const page = await teamsPage(ctx, organizationId, sql`${inTeam} ${titleFilter(filters.title)}`, args);
  const roles = page.items.length
    ? await readRows<{ team: string; role: TeamRole }>(
        ctx.em,
        sql`select team_id as "team", role from team_member where user_id = ${userId} and team_id = any(${page.items.map((t) => t.id)})`,
      )
    : [];
  const roleIn = new Map(roles.map((row) => [row.team, row.role]));
  return { ...page, items: page.items.map((team) => ({ team, member: { role: roleIn.get(team.id)! } })) };
}
