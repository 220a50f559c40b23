import { schemaBeside, type Area } from '../../kernel/area.js';
import { Collection } from './entities.js';
import { collectionLoaders } from './loaders.js';
import { collectionResolvers } from './resolvers.js';
import { collectionRoutes } from './routes.js';
import { collectionLists } from './lists.js';
import { CreateCollectionInput, MoveContentInput, TransferInput, UpdateCollectionInput } from './inputs.js';
import { CollectionReads, OrganizationCollectionReads } from './reads.js';

/** Collections of spaces and collections. */
export const collectionsArea = {
  name: 'collections',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateCollectionInput, UpdateCollectionInput, MoveContentInput, TransferInput },
  resolvers: collectionResolvers,
  loaders: collectionLoaders,
  lists: collectionLists,
  entities: [Collection],
  reads: [CollectionReads, OrganizationCollectionReads],
  routes: collectionRoutes,
} satisfies Area;
