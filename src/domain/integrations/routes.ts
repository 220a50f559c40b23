import type { Route } from '../../kernel/rest-route.js';
import { INTEGRATION, INTEGRATION_INSTALLATION } from './fragments.js';

const ONE_PATH = '/v1/integrations/{integrationName}';

export const integrationRoutes: Route[] = [
  {
    operationId: 'listIntegrations',
    method: 'GET',
    path: '/v1/integrations',
    status: 200,
    document: `query($search: String, $category: String, $blockDomain: String, $blocks: Boolean, $contentSources: Boolean, $owner: ID, $page: String, $limit: Int) {
      integrations(search: $search, category: $category, blockDomain: $blockDomain, blocks: $blocks, contentSources: $contentSources, owner: $owner, page: $page, limit: $limit) {
        items { ...IntegrationFields } count next { page }
      }
    } ${INTEGRATION}`,
  },
  {
    operationId: 'getIntegrationByName',
    method: 'GET',
    path: ONE_PATH,
    status: 200,
    document: `query($integrationName: String!) { integration(integrationName: $integrationName) { ...IntegrationFields } } ${INTEGRATION}`,
  },
  {
    operationId: 'publishIntegration',
    method: 'POST',
    path: ONE_PATH,
    status: 200,
    body: 'input',
    document: `mutation($integrationName: String!, $input: PublishIntegrationInput!) {
      publishIntegration(integrationName: $integrationName, input: $input) { ...IntegrationFields }
    } ${INTEGRATION}`,
  },
  {
    operationId: 'unpublishIntegration',
    method: 'DELETE',
    path: ONE_PATH,
    status: 204,
    document: `mutation($integrationName: String!) { unpublishIntegration(integrationName: $integrationName) }`,
  },
  {
    operationId: 'listIntegrationInstallations',
    method: 'GET',
    path: `${ONE_PATH}/installations`,
    status: 200,
    document: `query($integrationName: String!, $externalId: String, $page: String, $limit: Int) {
      integrationInstallations(integrationName: $integrationName, externalId: $externalId, page: $page, limit: $limit) {
        items { ...IntegrationInstallationFields } count next { page }
      }
    } ${INTEGRATION_INSTALLATION}`,
  },
];
