import { schemaBeside, type Area } from '../../kernel/area.js';
import { Member, Organization } from './entities.js';
import { organizationLoaders } from './loaders.js';
import { organizationResolvers } from './resolvers.js';
import { organizationRoutes } from './routes.js';

/** Organizations, and the memberships that tie users to them. */
export const organizationsArea = {
  name: 'organizations',
  typeDefs: schemaBeside(import.meta.url),
  resolvers: organizationResolvers,
  loaders: organizationLoaders,
  entities: [Organization, Member],
  routes: organizationRoutes,
} satisfies Area;
