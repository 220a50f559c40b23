import { found } from '../../kernel/loader.js';
import { createInOrganization, succeeded } from '../../kernel/resolvers.js';
import { etagOf, writeIfMatch, type ConditionalResource } from '../../graphql/conditional-writes.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { listCollectionSpaces } from '../spaces/index.js';
import { Collection, type CollectionRow } from './entities.js';
import { createCollection, deleteCollection, listChildCollections, listCollections, moveCollection, transferCollection, updateCollection } from './service.js';
import { itemsShape } from '../../db/read-shapes.js';

const COLLECTION_REPRESENTATION = 'getCollectionById';
/** A collection as conditional writes name it (graphql/conditional-writes.ts). */
const collectionResource = (id: string): ConditionalResource => ({
  representation: COLLECTION_REPRESENTATION,
  variables: { collectionId: id },
  row: [Collection, id],
});

export const collectionResolvers: Resolvers = {
  Query: {
    collections: (_, { organizationId, ...args }, ctx, info) => listCollections(ctx, organizationId, args, itemsShape(ctx, info, 'Collection')),
    collection: (_, { id }, ctx) => found(ctx.loaders.collection.get(id), 'Collection'),
    collectionSpaces: async (_, { collectionId, ...args }, ctx, info) =>
      listCollectionSpaces(ctx, (await ctx.loaders.collection.load(collectionId))!, args, itemsShape(ctx, info, 'Space')),
  },
  Mutation: {
    createCollection: createInOrganization(createCollection),
    updateCollection: (_, { id, input, ifMatch }, ctx) => writeIfMatch(ctx, ifMatch, collectionResource(id), (ctx) => updateCollection(ctx, id, input)),
    deleteCollection: (_, { id, ifMatch }, ctx) => writeIfMatch(ctx, ifMatch, collectionResource(id), (ctx) => succeeded(deleteCollection(ctx, id))),
    moveCollection: (_, { id, input }, ctx) => moveCollection(ctx, id, input),
    transferCollection: (_, { id, input }, ctx) => transferCollection(ctx, id, input),
  },
  Organization: {
    collections: (o, args, ctx, info) => listCollections(ctx, o.id, args, itemsShape(ctx, info, 'Collection')),
  },
  Collection: {
    object: () => 'collection',
    etag: (c, _, ctx) => etagOf(ctx, COLLECTION_REPRESENTATION, { collectionId: c.id }),
    urls: (c, _, ctx) => ({
      location: `${ctx.config.publicUrl}/v1/collections/${c.id}`,
      app: `${ctx.config.appUrl}/o/${c.organization}/c/${c.id}`,
    }),
    permissions: (c, _, ctx) => ctx.policy.collectionPermissions(c),
    owningOrganization: (c, _, ctx) => found(ctx.loaders.organization.get(c.organization), 'Organization'),
    /** The parent, when the viewer can see it (a visible sub-collection must not reveal a hidden parent). */
    parentCollection: (c, _, ctx) => ctx.policy.visibleCollection(c.parent),
    viewerRole: (c, _, ctx) => ctx.policy.collectionRole(c),
    collections: (c, args, ctx, info) => listChildCollections(ctx, c, args, itemsShape(ctx, info, 'Collection')),
    spaces: (c, args, ctx, info) => listCollectionSpaces(ctx, c, args, itemsShape(ctx, info, 'Space')),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Collection: CollectionRow;
  }
}
