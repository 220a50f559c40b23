import type { Context } from '../../kernel/context.js';
import { createInOrganization, deleteOrganizationItem, listInOrganization, onOrganizationItem, updateOrganizationItem } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { InviteLinkRow } from './entities.js';
import { createInviteLink, deleteInviteLink, inviteLinkOf, isRedundant, joinWithInviteLink, listInviteLinks, updateInviteLink } from './service.js';

const inviteFields = {
  object: () => 'invite',
  redundant: (l: InviteLinkRow, _: unknown, ctx: Context) => isRedundant(ctx, l),
};

export const inviteResolvers: Resolvers = {
  Query: {
    inviteLinks: listInOrganization(listInviteLinks),
    inviteLink: onOrganizationItem('inviteId', inviteLinkOf),
  },
  Mutation: {
    createInviteLink: createInOrganization(createInviteLink),
    updateInviteLink: updateOrganizationItem('inviteId', updateInviteLink),
    deleteInviteLink: deleteOrganizationItem('inviteId', deleteInviteLink),
    joinOrganizationWithInvite: onOrganizationItem('inviteId', joinWithInviteLink),
  },
  InviteLink: {
    __resolveType: (l: InviteLinkRow) => (l.space ? 'SpaceInviteLink' : l.collection ? 'CollectionInviteLink' : 'OrganizationInviteLink'),
  },
  OrganizationInviteLink: inviteFields,
  SpaceInviteLink: {
    ...inviteFields,
    level: (l: InviteLinkRow) => l.role,
    space: (l: InviteLinkRow, _: unknown, ctx: Context) => ctx.loaders.space.get(l.space!),
  },
  CollectionInviteLink: {
    ...inviteFields,
    level: (l: InviteLinkRow) => l.role,
    collection: (l: InviteLinkRow, _: unknown, ctx: Context) => ctx.loaders.collection.get(l.collection!),
  },
};
