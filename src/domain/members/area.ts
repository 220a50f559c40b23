import { schemaBeside, type Area } from '../../kernel/area.js';
import { memberLoaders } from './loaders.js';
import { memberResolvers } from './resolvers.js';
import { memberRoutes } from './routes.js';
import { memberSpaceCounts } from './space-counts.js';
import { UpdateMemberInput } from './inputs.js';

/** Members of organizations (their rows are the organizations area's Member). */
export const membersArea = {
  name: 'members',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { UpdateMemberInput },
  resolvers: memberResolvers,
  loaders: memberLoaders,
  lists: (em, policy) => ({ memberSpaceCounts: memberSpaceCounts(em, policy) }),
  routes: memberRoutes,
} satisfies Area;
