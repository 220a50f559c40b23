import { schemaBeside, type Area } from '../../kernel/area.js';
import { Space } from './entities.js';
import { spaceLoaders } from './loaders.js';
import { spaceResolvers } from './resolvers.js';
import { spaceRoutes } from './routes.js';
import { spaceJobHandlers } from './service.js';
import { spaceLists } from './lists.js';
import { CreateSpaceInput, UpdateSpaceInput } from './inputs.js';
import { SpaceListReads, SpaceReads } from './reads.js';

/** Spaces: their lifecycle (deleted spaces are purged by a job), places and transfers. */
export const spacesArea = {
  name: 'spaces',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateSpaceInput, UpdateSpaceInput },
  resolvers: spaceResolvers,
  loaders: spaceLoaders,
  lists: spaceLists,
  entities: [Space],
  reads: [SpaceReads, ...SpaceListReads],
  routes: spaceRoutes,
  jobs: { ...spaceJobHandlers },
} satisfies Area;
