import { schemaBeside, type Area } from '../../kernel/area.js';
import { Team, TeamMember } from './entities.js';
import { teamLoaders } from './loaders.js';
import { teamResolvers } from './resolvers.js';
import { teamRoutes } from './routes.js';
import { CreateTeamInput, UpdateTeamInput, UpdateTeamMembersInput } from './inputs.js';

/** Teams and their members. */
export const teamsArea = {
  name: 'teams',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateTeamInput, UpdateTeamInput, UpdateTeamMembersInput },
  resolvers: teamResolvers,
  loaders: teamLoaders,
  entities: [Team, TeamMember],
  routes: teamRoutes,
} satisfies Area;
