import type { Resolvers } from '../../kernel/resolver-types.js';
import type { Context } from '../../kernel/context.js';
import { succeeded } from '../../kernel/resolvers.js';
import type { UserRow } from './entities.js';
import { createApiToken, listApiTokens, revokeApiToken } from './service.js';

export const userResolvers: Resolvers = {
  Query: {
    viewer: (_: unknown, __: unknown, ctx: Context) => ctx.viewer!.user,
    apiTokens: (_: unknown, __: unknown, ctx: Context) => listApiTokens(ctx.em, ctx.viewer!.user.id),
  },
  Mutation: {
    createApiToken: async (_: unknown, { label }: { label: string }, ctx: Context) => {
      const { token, secret } = await createApiToken(ctx.em, ctx.clock, ctx.viewer!.user.id, label);
      return { id: token.id, label: token.label, createdAt: token.createdAt, token: secret };
    },
    revokeApiToken: (_: unknown, { id }: { id: string }, ctx: Context) => succeeded(revokeApiToken(ctx.em, ctx.clock, ctx.viewer!.user.id, id)),
  },
  User: {
    object: () => 'user',
    urls: (user: UserRow, _: unknown, ctx: Context) => ({ location: `${ctx.config.publicUrl}/v1/users/${user.id}` }),
    instanceAdmin: (user: UserRow, _: unknown, ctx: Context) =>
      ctx.viewer && (ctx.viewer.user.id === user.id || ctx.viewer.user.instanceAdmin) ? user.instanceAdmin : null,
  },
};
