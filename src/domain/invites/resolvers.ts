import type { Context } from '../../graphql/context.js';
import { createInOrganization, listInOrganization, succeeded } from '../common/resolvers.js';
import type { Resolvers } from '../../graphql/resolver-types.js';
import type { InviteLinkRow } from './entities.js';
import {
  createInviteLink,
  deleteInviteLink,
  inviteLinkOf,
  isRedundant,
  joinWithInviteLink,
  listInviteLinks,
  updateInviteLink,
} from './service.js';

type InviteArgs = { organizationId: string; inviteId: string };

const inviteFields = {
  object: () => 'invite',
  redundant: (l: InviteLinkRow, _: unknown, ctx: Context) => isRedundant(ctx, l),
};

export const inviteResolvers: Resolvers = {
  Query: {
    inviteLinks: listInOrganization(listInviteLinks),
    inviteLink: (_: unknown, { organizationId, inviteId }: InviteArgs, ctx: Context) => inviteLinkOf(ctx, organizationId, inviteId),
  },
  Mutation: {
    createInviteLink: createInOrganization(createInviteLink),
    updateInviteLink: (_: unknown, { organizationId, inviteId, input }: InviteArgs & { input: unknown }, ctx: Context) =>
      updateInviteLink(ctx, organizationId, inviteId, input),
    deleteInviteLink: (_: unknown, { organizationId, inviteId }: InviteArgs, ctx: Context) =>
      succeeded(deleteInviteLink(ctx, organizationId, inviteId)),
    joinOrganizationWithInvite: (_: unknown, { organizationId, inviteId }: InviteArgs, ctx: Context) =>
      joinWithInviteLink(ctx, organizationId, inviteId),
  },
  InviteLink: {
    __resolveType: (l: InviteLinkRow) => (l.space ? 'SpaceInviteLink' : l.collection ? 'CollectionInviteLink' : 'OrganizationInviteLink'),
  },
  OrganizationInviteLink: inviteFields,
  SpaceInviteLink: {
    ...inviteFields,
    level: (l: InviteLinkRow) => l.role,
    space: (l: InviteLinkRow, _: unknown, ctx: Context) => ctx.loaders.space.load(l.space!),
  },
  CollectionInviteLink: {
    ...inviteFields,
    level: (l: InviteLinkRow) => l.role,
    collection: (l: InviteLinkRow, _: unknown, ctx: Context) => ctx.loaders.collection.load(l.collection!),
  },
};
