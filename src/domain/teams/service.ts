import { z } from 'zod';
import type { Context } from '../../graphql/context.js';
import { badRequest, notFound } from '../../graphql/errors.js';
import { byCreation, paginateRows, type PageArgs } from '../../graphql/pagination.js';
import { parseInput, text } from '../../graphql/validation.js';
import { newId } from '../../ids.js';
import { memberKey } from '../members/keys.js';
import { memberOf } from '../members/service.js';
import { Member } from '../organizations/entities.js';
import { Team, TeamMember, type TeamRole, type TeamRow } from './entities.js';

const teamTitle = text({ min: 1, max: 64 });

const CreateTeamInput = z.object({
  /** 1-64 characters. */
  title: teamTitle,
  /** User ids of members of the organization, who join the team as `member`. */
  members: z.array(z.string(), { error: 'must be an array of member ids' }).max(1000, { error: 'must have at most 1000 members' }).nullish(),
});

const UpdateTeamInput = z.object({ title: teamTitle });

export type TeamFilters = { owner?: string | null; title?: string | null };

const containsTitle = (title: string | null | undefined) => {
  const needle = title?.toLowerCase();
  return (team: TeamRow) => !needle || team.title.toLowerCase().includes(needle);
};

/** The team `teamId` of the organization, or 404. */
export async function teamOf(ctx: Context, organizationId: string, teamId: string): Promise<TeamRow> {
  const team = await ctx.loaders.team.load(teamId);
  if (!team || team.organization !== organizationId) throw notFound('Team');
  return team;
}

/**
 * Teams of an organization, oldest first. `owner` keeps the teams that member can manage: all of them
 * for an organization admin, else those they own; `title` keeps titles containing it (any case).
 */
export async function listTeams(ctx: Context, organizationId: string, filters: TeamFilters, args: PageArgs) {
  let teams = await ctx.loaders.teamsByOrganization.load(organizationId);
  if (filters.owner) {
    const owner = await ctx.loaders.membership.load(memberKey(organizationId, filters.owner));
    if (!owner) throw badRequest(`owner: no member "${filters.owner}" in this organization`);
    const manages = await Promise.all(teams.map((t) => ctx.policy.forUser(filters.owner!).teamRole(t)));
    teams = teams.filter((_, i) => manages[i] === 'admin');
  }
  return paginateRows(teams.filter(containsTitle(filters.title)), byCreation, args);
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
  await ctx.em.flush();
  ctx.policy.forget();
  return team;
}

export async function renameTeam(ctx: Context, organizationId: string, teamId: string, input: unknown): Promise<TeamRow> {
  const { title } = parseInput(UpdateTeamInput, input);
  const team = await teamOf(ctx, organizationId, teamId);
  team.title = title;
  await ctx.em.flush();
  return team;
}

/** Deletes a team; its memberships and grants go with it (ON DELETE CASCADE). */
export async function deleteTeam(ctx: Context, organizationId: string, teamId: string): Promise<void> {
  await teamOf(ctx, organizationId, teamId);
  await ctx.em.nativeDelete(Team, { id: teamId });
  ctx.policy.forget();
}


export type MemberTeam = { team: TeamRow; member: { role: TeamRole } };

/** The teams a member belongs to, with their role in each, oldest team first; `title` as in listTeams. */
export async function listMemberTeams(ctx: Context, organizationId: string, userId: string, filters: { title?: string | null }, args: PageArgs) {
  await memberOf(ctx, organizationId, userId);
  const memberships = await ctx.loaders.teamMembershipsOf.load(memberKey(organizationId, userId));
  const teams = await Promise.all(memberships.map((m) => ctx.loaders.team.load(m.team)));
  const matches = containsTitle(filters.title);
  const items: MemberTeam[] = memberships.flatMap((m, i) => (teams[i] && matches(teams[i]) ? [{ team: teams[i], member: { role: m.role } }] : []));
  return paginateRows(items, (item) => byCreation(item.team), args);
}
