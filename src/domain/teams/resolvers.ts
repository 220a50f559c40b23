import { memberKey } from '../../kernel/member-keys.js';
import type { Context } from '../../kernel/context.js';
import type { PageArgs } from '../../kernel/pagination.js';
import {
  createInOrganization,
  deleteOrganizationItem,
  listFilteredInOrganization,
  onOrganizationItem,
  updateOrganizationItem,
} from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { TeamMemberRow, TeamRow } from './entities.js';
import { addTeamMember, listTeamMembers, removeTeamMember, updateTeamMembers } from './members.js';
import { createTeam, deleteTeam, listMemberTeams, listTeams, renameTeam, teamOf } from './service.js';

type TeamArgs = { organizationId: string; teamId: string };

export const teamResolvers: Resolvers = {
  Query: {
    teams: listFilteredInOrganization(listTeams),
    team: onOrganizationItem('teamId', teamOf),
    teamMembers: async (_: unknown, { organizationId, teamId, ...args }: TeamArgs & PageArgs, ctx: Context) =>
      listTeamMembers(ctx, await teamOf(ctx, organizationId, teamId), args),
    memberTeams: (
      _: unknown,
      { organizationId, userId, title, ...args }: PageArgs & { organizationId: string; userId: string; title?: string | null },
      ctx: Context,
    ) => listMemberTeams(ctx, organizationId, userId, { title }, args),
  },
  Mutation: {
    createTeam: createInOrganization(createTeam),
    updateTeam: updateOrganizationItem('teamId', renameTeam),
    deleteTeam: deleteOrganizationItem('teamId', deleteTeam),
    updateTeamMembers: async (_: unknown, { organizationId, teamId, input }: TeamArgs & { input: unknown }, ctx: Context) => {
      await updateTeamMembers(ctx, await teamOf(ctx, organizationId, teamId), input);
      return true;
    },
    addTeamMember: async (_: unknown, { organizationId, teamId, userId, role }: TeamArgs & { userId: string; role?: string | null }, ctx: Context) =>
      addTeamMember(ctx, await teamOf(ctx, organizationId, teamId), userId, { role }),
    removeTeamMember: async (_: unknown, { organizationId, teamId, userId }: TeamArgs & { userId: string }, ctx: Context) =>
      removeTeamMember(ctx, await teamOf(ctx, organizationId, teamId), userId),
  },
  Team: {
    object: () => 'team',
    members: (t: TeamRow, _: unknown, ctx: Context) => ctx.loaders.teamMemberCount.get(t.id),
    spaces: (t: TeamRow, _: unknown, ctx: Context) => ctx.loaders.teamSpaceCount.get(t.id),
    permissions: (t: TeamRow, _: unknown, ctx: Context) => ctx.policy.teamPermissions(t),
    owningOrganization: (t: TeamRow, _: unknown, ctx: Context) => ctx.loaders.organization.get(t.organization),
  },
  OrganizationTeamMember: {
    organization: (m: TeamMemberRow, _: unknown, ctx: Context) => ctx.loaders.membership.get(memberKey(m.organization, m.user)),
    team: (m: TeamMemberRow) => ({ role: m.role }),
    // Whoever may list a team's members may see each of them.
    permissions: () => ({ view: true }),
  },
};
