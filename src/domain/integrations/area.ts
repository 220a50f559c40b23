import { schemaBeside, type Area } from '../../kernel/area.js';
import { Integration, IntegrationInstallation, IntegrationSiteInstallation, IntegrationSpaceInstallation } from './entities.js';
import { integrationLoaders } from './loaders.js';
import { integrationResolvers } from './resolvers.js';
import { InstallIntegrationInput, PublishIntegrationInput } from './inputs.js';
import { integrationRoutes } from './routes.js';

/** Integrations: publishing and installing them. */
export const integrationsArea = {
  name: 'integrations',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { PublishIntegrationInput, InstallIntegrationInput },
  resolvers: integrationResolvers,
  loaders: integrationLoaders,
  entities: [Integration, IntegrationInstallation, IntegrationSpaceInstallation, IntegrationSiteInstallation],
  routes: integrationRoutes,
} satisfies Area;
