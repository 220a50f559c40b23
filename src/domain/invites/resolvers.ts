import type { Context } from '../../kernel/context.js';
import { found } from '../../kernel/loader.js';
import { createInOrganization, listFilteredInOrganization, onOrganizationItem } from '../../kernel/resolvers.js';
import { deleteOrganizationItemIfMatch, etagOfResource, updateOrganizationItemIfMatch, organizationItemResource } from '../../graphql/conditional-writes.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { InviteLink, type CollectionInviteLinkRow, type InviteLinkRow, type SpaceInviteLinkRow } from './entities.js';
import { inviteUsersByEmail } from './by-email.js';
import { createInviteLink, deleteInviteLink, inviteLinkOf, isRedundant, joinWithInviteLink, listInviteLinks, updateInviteLink } from './service.js';

/** An invite link as conditional writes name it (graphql/conditional-writes.ts). */
const inviteResource = organizationItemResource('getOrganizationInviteLink', 'inviteId', InviteLink);

const inviteFields = {
  object: () => 'invite',
  etag: (l: InviteLinkRow, _: unknown, ctx: Context) => etagOfResource(ctx, inviteResource(l.organization, l.id)),
  redundant: (l: InviteLinkRow, _: unknown, ctx: Context) => isRedundant(ctx, l),
};

export const inviteResolvers: Resolvers = {
  Query: {
    inviteLinks: listFilteredInOrganization(listInviteLinks),
    inviteLink: onOrganizationItem('inviteId', inviteLinkOf),
  },
  Mutation: {
    createInviteLink: createInOrganization(createInviteLink),
    updateInviteLink: updateOrganizationItemIfMatch('inviteId', inviteResource, updateInviteLink),
    deleteInviteLink: deleteOrganizationItemIfMatch('inviteId', inviteResource, deleteInviteLink),
    joinOrganizationWithInvite: onOrganizationItem('inviteId', joinWithInviteLink),
    inviteUsersToOrganization: createInOrganization(inviteUsersByEmail),
  },
  InviteLink: {
    __resolveType: (l) => (l.space ? 'SpaceInviteLink' : l.collection ? 'CollectionInviteLink' : 'OrganizationInviteLink'),
  },
  OrganizationInviteLink: inviteFields,
  SpaceInviteLink: {
    ...inviteFields,
    level: (l) => l.role,
    space: (l, _, ctx) => found(ctx.loaders.space.get(l.space), 'Space'),
  },
  CollectionInviteLink: {
    ...inviteFields,
    level: (l) => l.role,
    collection: (l, _, ctx) => found(ctx.loaders.collection.get(l.collection), 'Collection'),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    OrganizationInviteLink: InviteLinkRow;
    SpaceInviteLink: SpaceInviteLinkRow;
    CollectionInviteLink: CollectionInviteLinkRow;
  }
}
