import { changeRequestChecks } from './checks.js';
import { schemaBeside, type Area } from '../../kernel/area.js';
import { ChangeRequest } from './entities.js';
import { changeRequestLoaders } from './loaders.js';
import { changeRequestResolvers } from './resolvers.js';
import { changeRequestRoutes } from './routes.js';
import { CreateChangeRequestInput, UpdateChangeRequestInput } from './inputs.js';
import { ChangeRequestReads, SpaceChangeRequestReads } from './reads.js';
import { changeRequestLists } from './lists.js';

/** Change requests of spaces: opening, merging, bringing up to date. */
export const changeRequestsArea = {
  name: 'change-requests',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateChangeRequestInput, UpdateChangeRequestInput },
  resolvers: changeRequestResolvers,
  loaders: changeRequestLoaders,
  lists: changeRequestLists,
  entities: [ChangeRequest],
  reads: [ChangeRequestReads, SpaceChangeRequestReads],
  spaceOwned: [ChangeRequest] as never[],
  routes: changeRequestRoutes,
  checks: changeRequestChecks,
} satisfies Area;
