import type { Resolvers } from '../../kernel/resolver-types.js';
import { succeeded } from '../../kernel/resolvers.js';
import { etagIfVisible, writeIfMatch } from '../../graphql/conditional-writes.js';
import { isInstanceAdmin } from '../../kernel/token-scope.js';
import { User, type ApiTokenRow, type UserRow } from './entities.js';
import { updateUser, visibleUser } from './service.js';
import { createViewerApiToken, listApiTokens, revokeApiToken, scopeOfToken } from './tokens.js';

const USER_REPRESENTATION = 'getUserById';

export const userResolvers: Resolvers = {
  Query: {
    viewer: (_, __, ctx) => ctx.viewer!.user,
    user: (_, { id }, ctx) => visibleUser(ctx, id),
    apiTokens: (_, __, ctx) => listApiTokens(ctx.em, ctx.viewer!.user.id),
  },
  Mutation: {
    createApiToken: (_, { label, scope }, ctx) => createViewerApiToken(ctx, label, scope),
    revokeApiToken: (_, { id }, ctx) => succeeded(revokeApiToken(ctx.em, ctx.clock, ctx.viewer!.user.id, id, ctx.viewer!.scope)),
    updateUser: (_, { id, input, ifMatch }, ctx) =>
      writeIfMatch(ctx, ifMatch, { representation: USER_REPRESENTATION, variables: { userId: id }, row: [User, id] }, (ctx) => updateUser(ctx, id, input)),
  },
  ApiTokenInfo: {
    role: (token) => scopeOfToken(token).role,
    expired: (token, _, ctx) => !!token.expiresAt && token.expiresAt <= ctx.clock.now(),
  },
  CreatedApiToken: { role: (token) => scopeOfToken(token).role },
  User: {
    object: () => 'user',
    etag: (user, _, ctx) => etagIfVisible(ctx, USER_REPRESENTATION, { userId: user.id }),
    urls: (user, _, ctx) => ({ location: `${ctx.config.publicUrl}/v1/users/${user.id}` }),
    instanceAdmin: (user, _, ctx) => (ctx.viewer && (ctx.viewer.user.id === user.id || isInstanceAdmin(ctx.viewer)) ? user.instanceAdmin : null),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    User: UserRow;
    ApiTokenInfo: ApiTokenRow;
    CreatedApiToken: ApiTokenRow & { token: string };
  }
}
