import type { Resolvers } from '../../kernel/resolver-types.js';
import { succeeded } from '../../kernel/resolvers.js';
import type { ApiTokenRow, UserRow } from './entities.js';
import { createApiToken, listApiTokens, revokeApiToken, updateUser, visibleUser } from './service.js';

export const userResolvers: Resolvers = {
  Query: {
    viewer: (_, __, ctx) => ctx.viewer!.user,
    user: (_, { id }, ctx) => visibleUser(ctx, id),
    apiTokens: (_, __, ctx) => listApiTokens(ctx.em, ctx.viewer!.user.id),
  },
  Mutation: {
    createApiToken: async (_, { label }, ctx) => {
      const { token, secret } = await createApiToken(ctx.em, ctx.clock, ctx.viewer!.user.id, label);
      return { id: token.id, label: token.label, createdAt: token.createdAt, token: secret };
    },
    revokeApiToken: (_, { id }, ctx) => succeeded(revokeApiToken(ctx.em, ctx.clock, ctx.viewer!.user.id, id)),
    updateUser: (_, { id, input }, ctx) => updateUser(ctx, id, input),
  },
  User: {
    object: () => 'user',
    urls: (user, _, ctx) => ({ location: `${ctx.config.publicUrl}/v1/users/${user.id}` }),
    instanceAdmin: (user, _, ctx) => (ctx.viewer && (ctx.viewer.user.id === user.id || ctx.viewer.user.instanceAdmin) ? user.instanceAdmin : null),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    User: UserRow;
    ApiTokenInfo: ApiTokenRow;
  }
}
