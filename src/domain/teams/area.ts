import { schemaBeside, type Area } from '../../kernel/area.js';
import { Team, TeamMember } from './entities.js';
import { teamLoaders } from './loaders.js';
import { teamResolvers } from './resolvers.js';
import { teamRoutes } from './routes.js';

/** Teams and their members. */
export const teamsArea = {
  name: 'teams',
  typeDefs: schemaBeside(import.meta.url),
  resolvers: teamResolvers,
  loaders: teamLoaders,
  entities: [Team, TeamMember],
  routes: teamRoutes,
} satisfies Area;
