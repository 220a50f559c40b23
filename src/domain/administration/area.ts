import { schemaBeside, type Area } from '../../kernel/area.js';
import { administrationResolvers } from './resolvers.js';
import { AdminCreateApiTokenInput, AdminCreateOrganizationInput, AdminCreateUserInput, AdminSetMemberInput } from './inputs.js';

/** Instance administration: the admin CLI's operations while a server runs (not in the contract). */
export const administrationArea = {
  name: 'administration',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { AdminCreateUserInput, AdminCreateApiTokenInput, AdminCreateOrganizationInput, AdminSetMemberInput },
  resolvers: administrationResolvers,
} satisfies Area;
