import { schemaBeside, type Area } from '../../kernel/area.js';
import { ApiToken, User } from './entities.js';
import { userLoaders } from './loaders.js';
import { userResolvers } from './resolvers.js';
import { userRoutes } from './routes.js';
import { UpdateUserInput } from './inputs.js';
import { ApiTokenScopeInput } from './tokens.js';

/** Users and their API tokens. */
export const usersArea = {
  name: 'users',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { UpdateUserInput, ApiTokenScopeInput },
  resolvers: userResolvers,
  loaders: userLoaders,
  entities: [User, ApiToken],
  routes: userRoutes,
} satisfies Area;
