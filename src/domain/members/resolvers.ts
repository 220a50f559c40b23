import type { Context } from '../../kernel/context.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { deleteOrganizationItem, listFilteredInOrganization, onOrganizationItem, updateOrganizationItem } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { MemberRow } from '../organizations/index.js';
import { memberKey } from '../../kernel/member-keys.js';
import { listMembers, listMemberSpaces, markMemberAsSSO, memberOf, removeMember, updateMember } from './service.js';

type MemberArgs = { organizationId: string; userId: string };

export const memberResolvers: Resolvers = {
  Query: {
    members: listFilteredInOrganization(listMembers),
    member: onOrganizationItem('userId', memberOf),
    memberSpaces: (_: unknown, { organizationId, userId, order, ...args }: MemberArgs & PageArgs & { order?: string | null }, ctx: Context) =>
      listMemberSpaces(ctx, organizationId, userId, { order }, args),
  },
  Mutation: {
    updateMember: updateOrganizationItem('userId', updateMember),
    removeMember: deleteOrganizationItem('userId', removeMember),
    markMemberAsSSO: onOrganizationItem('userId', markMemberAsSSO),
  },
  Member: {
    object: () => 'member',
    id: (m: MemberRow) => m.user,
    user: (m: MemberRow, _: unknown, ctx: Context) => ctx.loaders.user.get(m.user),
    spaces: (m: MemberRow, _: unknown, ctx: Context) => ctx.lists.memberSpaceCounts.get(memberKey(m.organization, m.user)),
    teams: async (m: MemberRow, _: unknown, ctx: Context) => (await ctx.loaders.teamMembershipsOf.load(memberKey(m.organization, m.user))).length,
    owningOrganization: (m: MemberRow, _: unknown, ctx: Context) => ctx.loaders.organization.get(m.organization),
  },
};
