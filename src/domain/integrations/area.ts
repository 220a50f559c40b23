import { schemaBeside, type Area } from '../../kernel/area.js';
import { Integration, IntegrationInstallation, IntegrationSiteInstallation, IntegrationSpaceInstallation } from './entities.js';
import { integrationLoaders } from './loaders.js';
import { integrationResolvers } from './resolvers.js';
import { installationChecks } from './checks.js';
import {
  InstallIntegrationInput,
  PublishIntegrationInput,
  UpdateIntegrationInstallationInput,
  UpdateIntegrationSiteInstallationInput,
  UpdateIntegrationSpaceInstallationInput,
} from './inputs.js';
import { integrationRoutes } from './routes.js';

/** Integrations: publishing and installing them. */
export const integrationsArea = {
  name: 'integrations',
  typeDefs: schemaBeside(import.meta.url),
  inputs: {
    PublishIntegrationInput,
    InstallIntegrationInput,
    UpdateIntegrationInstallationInput,
    UpdateIntegrationSpaceInstallationInput,
    UpdateIntegrationSiteInstallationInput,
  },
  checks: installationChecks,
  resolvers: integrationResolvers,
  loaders: integrationLoaders,
  entities: [Integration, IntegrationInstallation, IntegrationSpaceInstallation, IntegrationSiteInstallation],
  routes: integrationRoutes,
} satisfies Area;
