import type { Context } from '../../kernel/context.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { adminCreateApiToken, adminCreateOrganization, adminCreateUser, adminRevokeApiToken, setInstanceAdmin, setMembership } from './service.js';

export const administrationResolvers: Resolvers = {
  Mutation: {
    adminCreateUser: (_: unknown, { input }: { input: Parameters<typeof adminCreateUser>[1] }, ctx: Context) => adminCreateUser(ctx, input),
    adminSetInstanceAdmin: (_: unknown, { user, instanceAdmin }: { user: string; instanceAdmin: boolean }, ctx: Context) =>
      setInstanceAdmin(ctx, user, instanceAdmin),
    adminCreateApiToken: (_: unknown, { input }: { input: unknown }, ctx: Context) => adminCreateApiToken(ctx, input),
    adminRevokeApiToken: (_: unknown, { user, tokenId }: { user: string; tokenId: string }, ctx: Context) => adminRevokeApiToken(ctx, user, tokenId),
    adminCreateOrganization: (_: unknown, { input }: { input: { title: string; owner: string } }, ctx: Context) => adminCreateOrganization(ctx, input),
    adminSetMember: (_: unknown, { organizationId, input }: { organizationId: string; input: unknown }, ctx: Context) =>
      setMembership(ctx, organizationId, input),
  },
};
