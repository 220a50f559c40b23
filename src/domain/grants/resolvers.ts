import type { Context } from '../../kernel/context.js';
import { conflict } from '../../kernel/errors.js';
import { found } from '../../kernel/loader.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import type { ContentGrantRow } from './entities.js';
import { grantRole, inviteToContent, listContentPermissions, listGrants, revokeRole, setRole, type GrantTarget } from './service.js';
import type { MemberRow } from '../organizations/index.js';
import type { Role } from '../../kernel/roles.js';

/** The space or collection named by a guarded root field (the guard has loaded and checked it). */
async function spaceTarget(ctx: Context, spaceId: string): Promise<GrantTarget> {
  const space = (await ctx.loaders.space.load(spaceId))!;
  return { organization: space.organization, space: space.id };
}

/** The same for a change: like every change of a space, it waits until a deleted space is restored. */
async function liveSpaceTarget(ctx: Context, spaceId: string): Promise<GrantTarget> {
  if ((await ctx.loaders.space.load(spaceId))!.deletedAt) throw conflict('Space is deleted: restore it first');
  return spaceTarget(ctx, spaceId);
}

async function collectionTarget(ctx: Context, collectionId: string): Promise<GrantTarget> {
  const collection = (await ctx.loaders.collection.load(collectionId))!;
  return { organization: collection.organization, collection: collection.id };
}

export const grantResolvers: Resolvers = {
  Query: {
    spaceGrants: async (_, { spaceId, ...args }, ctx) => listGrants(ctx, await spaceTarget(ctx, spaceId), args),
    collectionGrants: async (_, { collectionId, ...args }, ctx) => listGrants(ctx, await collectionTarget(ctx, collectionId), args),
    spacePermissions: (_, { spaceId, ...args }, ctx) => listContentPermissions(ctx, { space: spaceId }, args),
    collectionPermissions: (_, { collectionId, ...args }, ctx) => listContentPermissions(ctx, { collection: collectionId }, args),
  },
  Mutation: {
    grantSpaceRole: async (_, { spaceId, input }, ctx) => grantRole(ctx, await liveSpaceTarget(ctx, spaceId), input),
    revokeSpaceRole: async (_, { spaceId, input }, ctx) => revokeRole(ctx, await liveSpaceTarget(ctx, spaceId), input),
    grantCollectionRole: async (_, { collectionId, input }, ctx) => grantRole(ctx, await collectionTarget(ctx, collectionId), input),
    revokeCollectionRole: async (_, { collectionId, input }, ctx) => revokeRole(ctx, await collectionTarget(ctx, collectionId), input),
    setSpaceRole: async (_, { spaceId, input, ...grantee }, ctx) => setRole(ctx, await liveSpaceTarget(ctx, spaceId), grantee, input),
    setCollectionRole: async (_, { collectionId, input, ...grantee }, ctx) => setRole(ctx, await collectionTarget(ctx, collectionId), grantee, input),
    inviteToSpace: async (_, { spaceId, input }, ctx) => inviteToContent(ctx, await liveSpaceTarget(ctx, spaceId), input),
    inviteToCollection: async (_, { collectionId, input }, ctx) => inviteToContent(ctx, await collectionTarget(ctx, collectionId), input),
  },
  UserPermission: {
    permission: (m) => m.role,
    user: (m, _, ctx) => found(ctx.loaders.user.load(m.member.user), 'User'),
  },
  ContentGrant: {
    team: (g, _, ctx) => (g.team ? ctx.loaders.team.load(g.team) : null),
    user: (g, _, ctx) => (g.user ? ctx.loaders.user.load(g.user) : null),
    space: (g, _, ctx) => (g.space ? ctx.loaders.space.load(g.space) : null),
    collection: (g, _, ctx) => (g.collection ? ctx.loaders.collection.load(g.collection) : null),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    ContentGrant: ContentGrantRow;
    UserPermission: { member: MemberRow; role: Role };
  }
}
