import { schemaBeside, type Area } from '../../kernel/area.js';
import { InviteLink } from './entities.js';
import { removeInviteLinksTo } from './service.js';
import { inviteLoaders } from './loaders.js';
import { inviteResolvers } from './resolvers.js';
import { inviteRoutes } from './routes.js';
import { CreateInviteLinkInput, InviteUsersToOrganizationInput, UpdateInviteLinkInput } from './inputs.js';

/** Invite links to organizations, spaces and collections, and invitations of users by e-mail address. */
export const invitesArea = {
  name: 'invites',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateInviteLinkInput, UpdateInviteLinkInput, InviteUsersToOrganizationInput },
  resolvers: inviteResolvers,
  loaders: inviteLoaders,
  entities: [InviteLink],
  // Content leaving its organization loses its invite links there; purged content's go by cascade.
  contentLeaving: async (em, content, why) => {
    if (why === 'moved') await removeInviteLinksTo(em, content);
  },
  routes: inviteRoutes,
} satisfies Area;
