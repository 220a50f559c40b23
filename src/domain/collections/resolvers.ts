import { found } from '../../kernel/loader.js';
import { createInOrganization, succeeded, updateById } from '../../kernel/resolvers.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { listCollectionSpaces } from '../spaces/index.js';
import type { CollectionRow } from './entities.js';
import { createCollection, deleteCollection, listChildCollections, listCollections, moveCollection, transferCollection, updateCollection } from './service.js';

export const collectionResolvers: Resolvers = {
  Query: {
    collections: (_, { organizationId, ...args }, ctx) => listCollections(ctx, organizationId, args),
    collection: (_, { id }, ctx) => found(ctx.loaders.collection.get(id), 'Collection'),
    collectionSpaces: async (_, { collectionId, ...args }, ctx) => listCollectionSpaces(ctx, (await ctx.loaders.collection.load(collectionId))!, args),
  },
  Mutation: {
    createCollection: createInOrganization(createCollection),
    updateCollection: updateById(updateCollection),
    deleteCollection: (_, { id }, ctx) => succeeded(deleteCollection(ctx, id)),
    moveCollection: (_, { id, input }, ctx) => moveCollection(ctx, id, input),
    transferCollection: (_, { id, input }, ctx) => transferCollection(ctx, id, input),
  },
  Organization: {
    collections: (o, args, ctx) => listCollections(ctx, o.id, args),
  },
  Collection: {
    object: () => 'collection',
    urls: (c, _, ctx) => ({
      location: `${ctx.config.publicUrl}/v1/collections/${c.id}`,
      app: `${ctx.config.appUrl}/o/${c.organization}/c/${c.id}`,
    }),
    permissions: (c, _, ctx) => ctx.policy.collectionPermissions(c),
    owningOrganization: (c, _, ctx) => found(ctx.loaders.organization.get(c.organization), 'Organization'),
    /** The parent, when the viewer can see it (a visible sub-collection must not reveal a hidden parent). */
    parentCollection: (c, _, ctx) => ctx.policy.visibleCollection(c.parent),
    viewerRole: (c, _, ctx) => ctx.policy.collectionRole(c),
    collections: (c, args, ctx) => listChildCollections(ctx, c, args),
    spaces: (c, args, ctx) => listCollectionSpaces(ctx, c, args),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Collection: CollectionRow;
  }
}
