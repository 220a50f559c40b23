import type { Context } from '../../kernel/context.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { createInOrganization, succeeded, updateById, type Id } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { listCollectionSpaces } from '../spaces/index.js';
import type { CollectionRow } from './entities.js';
import type { OrganizationRow } from '../organizations/index.js';
import { createCollection, deleteCollection, listChildCollections, listCollections, moveCollection, transferCollection, updateCollection } from './service.js';

export const collectionResolvers: Resolvers = {
  Query: {
    collections: (_: unknown, { organizationId, ...args }: PageArgs & { organizationId: string; nested: boolean }, ctx: Context) =>
      listCollections(ctx, organizationId, args),
    collection: (_: unknown, { id }: Id, ctx: Context) => ctx.loaders.collection.get(id),
    collectionSpaces: async (_: unknown, { collectionId, ...args }: PageArgs & { collectionId: string }, ctx: Context) =>
      listCollectionSpaces(ctx, (await ctx.loaders.collection.load(collectionId))!, args),
  },
  Mutation: {
    createCollection: createInOrganization(createCollection),
    updateCollection: updateById(updateCollection),
    deleteCollection: (_: unknown, { id }: Id, ctx: Context) => succeeded(deleteCollection(ctx, id)),
    moveCollection: (_: unknown, { id, input }: Id & { input: Parameters<typeof moveCollection>[2] }, ctx: Context) => moveCollection(ctx, id, input),
    transferCollection: (_: unknown, { id, input }: Id & { input: Parameters<typeof transferCollection>[2] }, ctx: Context) =>
      transferCollection(ctx, id, input),
  },
  Organization: {
    collections: (o: OrganizationRow, args: PageArgs & { nested: boolean }, ctx: Context) => listCollections(ctx, o.id, args),
  },
  Collection: {
    object: () => 'collection',
    urls: (c: CollectionRow, _: unknown, ctx: Context) => ({
      location: `${ctx.config.publicUrl}/v1/collections/${c.id}`,
      app: `${ctx.config.appUrl}/o/${c.organization}/c/${c.id}`,
    }),
    permissions: (c: CollectionRow, _: unknown, ctx: Context) => ctx.policy.collectionPermissions(c),
    owningOrganization: (c: CollectionRow, _: unknown, ctx: Context) => ctx.loaders.organization.get(c.organization),
    /** The parent, when the viewer can see it (a visible sub-collection must not reveal a hidden parent). */
    parentCollection: (c: CollectionRow, _: unknown, ctx: Context) => ctx.policy.visibleCollection(c.parent),
    viewerRole: (c: CollectionRow, _: unknown, ctx: Context) => ctx.policy.collectionRole(c),
    collections: (c: CollectionRow, args: PageArgs, ctx: Context) => listChildCollections(ctx, c, args),
    spaces: (c: CollectionRow, args: PageArgs, ctx: Context) => listCollectionSpaces(ctx, c, args),
  },
};
