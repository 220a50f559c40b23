import { memberKey } from '../../kernel/member-keys.js';
import { found } from '../../kernel/loader.js';
import { createInOrganization, listFilteredInOrganization, onOrganizationItem, succeeded } from '../../kernel/resolvers.js';
import { etagOf, writeIfMatch, type ConditionalResource } from '../../graphql/conditional-writes.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { Team, type TeamMemberRow, type TeamRow } from './entities.js';
import { addTeamMember, listTeamMembers, removeTeamMember, updateTeamMembers } from './members.js';
import { createTeam, deleteTeam, listMemberTeams, listTeams, renameTeam, teamOf } from './service.js';

const TEAM_REPRESENTATION = 'getTeamInOrganizationById';
/** A team as conditional writes name it (graphql/conditional-writes.ts). */
const teamResource = (organizationId: string, teamId: string): ConditionalResource => ({
  representation: TEAM_REPRESENTATION,
  variables: { organizationId, teamId },
  row: [Team, teamId],
});

export const teamResolvers: Resolvers = {
  Query: {
    teams: listFilteredInOrganization(listTeams),
    team: onOrganizationItem('teamId', teamOf),
    teamMembers: async (_, { organizationId, teamId, ...args }, ctx) => listTeamMembers(ctx, await teamOf(ctx, organizationId, teamId), args),
    memberTeams: (_, { organizationId, userId, title, ...args }, ctx) => listMemberTeams(ctx, organizationId, userId, { title }, args),
  },
  Mutation: {
    createTeam: createInOrganization(createTeam),
    updateTeam: (_, { organizationId, teamId, input, ifMatch }, ctx) =>
      writeIfMatch(ctx, ifMatch, teamResource(organizationId, teamId), (ctx) => renameTeam(ctx, organizationId, teamId, input)),
    deleteTeam: (_, { organizationId, teamId, ifMatch }, ctx) =>
      writeIfMatch(ctx, ifMatch, teamResource(organizationId, teamId), (ctx) => succeeded(deleteTeam(ctx, organizationId, teamId))),
    updateTeamMembers: async (_, { organizationId, teamId, input }, ctx) => {
      await updateTeamMembers(ctx, await teamOf(ctx, organizationId, teamId), input);
      return true;
    },
    addTeamMember: async (_, { organizationId, teamId, userId, role }, ctx) => addTeamMember(ctx, await teamOf(ctx, organizationId, teamId), userId, { role }),
    removeTeamMember: async (_, { organizationId, teamId, userId }, ctx) => removeTeamMember(ctx, await teamOf(ctx, organizationId, teamId), userId),
  },
  Team: {
    object: () => 'team',
    etag: (t, _, ctx) => etagOf(ctx, TEAM_REPRESENTATION, { organizationId: t.organization, teamId: t.id }),
    members: (t, _, ctx) => ctx.loaders.teamMemberCount.get(t.id),
    spaces: (t, _, ctx) => ctx.loaders.teamSpaceCount.get(t.id),
    permissions: (t, _, ctx) => ctx.policy.teamPermissions(t),
    owningOrganization: (t, _, ctx) => found(ctx.loaders.organization.get(t.organization), 'Organization'),
  },
  OrganizationTeamMember: {
    organization: (m, _, ctx) => found(ctx.loaders.membership.get(memberKey(m.organization, m.user)), 'Member'),
    team: (m) => ({ role: m.role }),
    // Whoever may list a team's members may see each of them.
    permissions: () => ({ view: true }),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Team: TeamRow;
    OrganizationTeamMember: TeamMemberRow;
  }
}
