import { schemaBeside, type Area } from '../../kernel/area.js';
import { Member, Organization } from './entities.js';
import { organizationLoaders } from './loaders.js';
import { organizationResolvers } from './resolvers.js';
import { organizationRoutes } from './routes.js';
import { OrganizationReads } from './reads.js';
import { CreateOrganizationInput, UpdateOrganizationInput } from './inputs.js';

/** Organizations, and the memberships that tie users to them. */
export const organizationsArea = {
  name: 'organizations',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateOrganizationInput, UpdateOrganizationInput },
  resolvers: organizationResolvers,
  loaders: organizationLoaders,
  entities: [Organization, Member],
  reads: [OrganizationReads],
  routes: organizationRoutes,
} satisfies Area;
