import type { Resolvers } from '../../kernel/resolver-types.js';
import { adminCreateApiToken, adminCreateOrganization, adminCreateUser, adminRevokeApiToken, setInstanceAdmin, setMembership } from './service.js';

export const administrationResolvers: Resolvers = {
  Mutation: {
    adminCreateUser: (_, { input }, ctx) => adminCreateUser(ctx, input),
    adminSetInstanceAdmin: (_, { user, instanceAdmin }, ctx) => setInstanceAdmin(ctx, user, instanceAdmin),
    adminCreateApiToken: (_, { input }, ctx) => adminCreateApiToken(ctx, input),
    adminRevokeApiToken: (_, { user, tokenId }, ctx) => adminRevokeApiToken(ctx, user, tokenId),
    adminCreateOrganization: (_, { input }, ctx) => adminCreateOrganization(ctx, input),
    adminSetMember: (_, { organizationId, input }, ctx) => setMembership(ctx, organizationId, input),
  },
};
