import { found, whenLoaded } from '../../kernel/loader.js';
import { listFilteredInOrganization, onOrganizationItem } from '../../kernel/resolvers.js';
import { deleteOrganizationItemIfMatch, etagOfResource, updateOrganizationItemIfMatch, organizationItemResource } from '../../graphql/conditional-writes.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { Member, type MemberRow } from '../organizations/index.js';
import { memberKey } from '../../kernel/member-keys.js';
import { listMembers, listMemberSpaces, markMemberAsSSO, memberOf, removeMember, updateMember } from './service.js';

/** A member as conditional writes name it (graphql/conditional-writes.ts): its GET, its membership row. */
const memberResource = organizationItemResource('getMemberInOrganizationById', 'userId', Member, (organization, user) => ({ organization, user }));

export const memberResolvers: Resolvers = {
  Query: {
    members: listFilteredInOrganization(listMembers),
    member: onOrganizationItem('userId', memberOf),
    memberSpaces: (_, { organizationId, userId, order, ...args }, ctx) => listMemberSpaces(ctx, organizationId, userId, { order }, args),
  },
  Mutation: {
    updateMember: updateOrganizationItemIfMatch('userId', memberResource, updateMember),
    removeMember: deleteOrganizationItemIfMatch('userId', memberResource, removeMember),
    markMemberAsSSO: onOrganizationItem('userId', markMemberAsSSO),
  },
  Member: {
    object: () => 'member',
    id: (m) => m.user,
    etag: (m, _, ctx) => etagOfResource(ctx, memberResource(m.organization, m.user)),
    user: (m, _, ctx) => found(ctx.loaders.user.get(m.user), 'User'),
    spaces: (m, _, ctx) => ctx.lists.memberSpaceCounts.get(memberKey(m.organization, m.user)),
    teams: async (m, _, ctx) => (await ctx.loaders.teamMembershipsOf.load(memberKey(m.organization, m.user))).length,
    /** Sites read with the organization role: all of them for an enabled non-guest member, when the caller (a non-guest member too) sees them. */
    sites: (m, _, ctx) =>
      m.disabled || !m.role
        ? 0
        : whenLoaded(ctx.policy.organizationRole(m.organization), (callerRole) => (callerRole ? ctx.loaders.organizationSiteCount.get(m.organization) : 0)),
    owningOrganization: (m, _, ctx) => found(ctx.loaders.organization.get(m.organization), 'Organization'),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Member: MemberRow;
  }
}
