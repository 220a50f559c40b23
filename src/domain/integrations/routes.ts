import type { Route } from '../../kernel/rest-route.js';
import { INTEGRATION, INTEGRATION_INSTALLATION, INTEGRATION_SITE_INSTALLATION, INTEGRATION_SPACE_INSTALLATION } from './fragments.js';

const ONE_PATH = '/v1/integrations/{integrationName}';
const INSTALLATION_PATH = `${ONE_PATH}/installations/{installationId}`;
const INSTALLATION = '$integrationName: String!, $installationId: ID!';
const OF_INSTALLATION = 'integrationName: $integrationName, installationId: $installationId';
const PAGE = 'page: $page, limit: $limit';
const LISTED = 'count next { page }';

/**
 * The routes of an installation's spaces or sites (0.202.0): list, install on one (the body names it:
 * `space`, `siteId`), get, update, uninstall; and the integration's installations on them.
 */
function contentRoutes(
  kind: 'Space' | 'Site',
  names: Record<'list' | 'install' | 'get' | 'update' | 'uninstall' | 'everywhere', string>,
  bodyField: string,
): Route[] {
  const id = `${kind.toLowerCase()}Id`;
  const fields = `...Integration${kind}InstallationFields`;
  const fragment = kind === 'Space' ? INTEGRATION_SPACE_INSTALLATION : INTEGRATION_SITE_INSTALLATION;
  const path = `${INSTALLATION_PATH}/${kind.toLowerCase()}s`;
  const one = `${INSTALLATION}, $${id}: ID!`;
  const ofOne = `${OF_INSTALLATION}, ${id}: $${id}`;
  return [
    {
      operationId: names.list,
      method: 'GET',
      path,
      status: 200,
      document: `query(${INSTALLATION}, $page: String, $limit: Int) {
        integrationInstallation${kind}s(${OF_INSTALLATION}, ${PAGE}) { items { ${fields} } ${LISTED} }
      } ${fragment}`,
    },
    {
      operationId: names.install,
      method: 'POST',
      path,
      status: 201,
      document: `mutation(${INSTALLATION}, $${bodyField}: ID!) {
        installIntegrationOn${kind}(${OF_INSTALLATION}, ${id}: $${bodyField}) { ${fields} }
      } ${fragment}`,
    },
    {
      operationId: names.get,
      method: 'GET',
      path: `${path}/{${id}}`,
      status: 200,
      document: `query(${one}) { integration${kind}Installation(${ofOne}) { ${fields} } } ${fragment}`,
    },
    {
      operationId: names.update,
      method: 'PATCH',
      path: `${path}/{${id}}`,
      status: 200,
      body: 'input',
      document: `mutation(${one}, $input: UpdateIntegration${kind}InstallationInput!, $ifMatch: String) {
        updateIntegration${kind}Installation(${ofOne}, input: $input, ifMatch: $ifMatch) { ${fields} }
      } ${fragment}`,
    },
    {
      operationId: names.uninstall,
      method: 'DELETE',
      path: `${path}/{${id}}`,
      status: 204,
      document: `mutation(${one}, $ifMatch: String) { uninstallIntegrationFrom${kind}(${ofOne}, ifMatch: $ifMatch) }`,
    },
    {
      operationId: names.everywhere,
      method: 'GET',
      path: `${ONE_PATH}/${kind.toLowerCase()}s`,
      status: 200,
      document: `query($integrationName: String!, $externalId: String, $page: String, $limit: Int) {
        integration${kind}Installations(integrationName: $integrationName, externalId: $externalId, ${PAGE}) { items { ${fields} } ${LISTED} }
      } ${fragment}`,
    },
  ];
}

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
    document: `mutation($integrationName: String!, $ifMatch: String) { unpublishIntegration(integrationName: $integrationName, ifMatch: $ifMatch) }`,
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
  {
    operationId: 'installIntegration',
    method: 'POST',
    path: `${ONE_PATH}/installations`,
    status: 201,
    document: `mutation($integrationName: String!, $organization: ID!) {
      createIntegrationInstallation(integrationName: $integrationName, organizationId: $organization) { ...IntegrationInstallationFields }
    } ${INTEGRATION_INSTALLATION}`,
  },
  {
    operationId: 'getIntegrationInstallationById',
    method: 'GET',
    path: INSTALLATION_PATH,
    status: 200,
    document: `query(${INSTALLATION}) { integrationInstallationById(${OF_INSTALLATION}) { ...IntegrationInstallationFields } } ${INTEGRATION_INSTALLATION}`,
  },
  {
    operationId: 'updateIntegrationInstallation',
    method: 'PATCH',
    path: INSTALLATION_PATH,
    status: 200,
    body: 'input',
    document: `mutation(${INSTALLATION}, $input: UpdateIntegrationInstallationInput!, $ifMatch: String) {
      updateIntegrationInstallation(${OF_INSTALLATION}, input: $input, ifMatch: $ifMatch) { ...IntegrationInstallationFields }
    } ${INTEGRATION_INSTALLATION}`,
  },
  {
    operationId: 'uninstallIntegration',
    method: 'DELETE',
    path: INSTALLATION_PATH,
    status: 204,
    document: `mutation(${INSTALLATION}, $ifMatch: String) { removeIntegrationInstallation(${OF_INSTALLATION}, ifMatch: $ifMatch) }`,
  },
  {
    operationId: 'createIntegrationInstallationToken',
    method: 'POST',
    path: `${INSTALLATION_PATH}/tokens`,
    status: 200,
    document: `mutation(${INSTALLATION}) { createIntegrationInstallationToken(${OF_INSTALLATION}) { token } }`,
  },
  ...contentRoutes(
    'Space',
    {
      list: 'listIntegrationInstallationSpaces',
      install: 'installIntegrationOnSpace',
      get: 'getIntegrationSpaceInstallation',
      update: 'updateIntegrationSpaceInstallation',
      uninstall: 'uninstallIntegrationFromSpace',
      everywhere: 'listIntegrationSpaceInstallations',
    },
    'space',
  ),
  ...contentRoutes(
    'Site',
    {
      list: 'listIntegrationInstallationSites',
      install: 'installIntegrationOnSite',
      get: 'getIntegrationSiteInstallation',
      update: 'updateIntegrationSiteInstallation',
      uninstall: 'uninstallIntegrationFromSite',
      everywhere: 'listIntegrationSiteInstallations',
    },
    'siteId',
  ),
  {
    operationId: 'listOrganizationInstallations',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/installations',
    status: 200,
    document: `query($organizationId: ID!, $search: String, $page: String, $limit: Int) {
      organizationInstallations(organizationId: $organizationId, search: $search, ${PAGE}) {
        items { installation { ...IntegrationInstallationFields } integration { ...IntegrationFields } } ${LISTED}
      }
    } ${INTEGRATION_INSTALLATION} ${INTEGRATION}`,
  },
  {
    operationId: 'listOrganizationIntegrations',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/integrations',
    status: 200,
    document: `query($organizationId: ID!, $search: String, $category: String, $blockDomain: String, $blocks: Boolean, $contentSources: Boolean, $owner: ID,
      $scope: String, $target: String, $page: String, $limit: Int) {
      organizationIntegrations(organizationId: $organizationId, search: $search, category: $category, blockDomain: $blockDomain, blocks: $blocks,
        contentSources: $contentSources, owner: $owner, scope: $scope, target: $target, ${PAGE}) { items { ...IntegrationFields } ${LISTED} }
    } ${INTEGRATION}`,
  },
  {
    operationId: 'listOrganizationIntegrationsStatus',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/integrations/installations-status',
    status: 200,
    document: `query($organizationId: ID!, $target: String, $space: ID, $site: ID, $page: String, $limit: Int) {
      organizationIntegrationStatuses(organizationId: $organizationId, target: $target, space: $space, site: $site, ${PAGE}) {
        items { status integration { ...IntegrationFields } target { type organizationId spaceId siteId } } ${LISTED}
      }
    } ${INTEGRATION}`,
  },
  {
    operationId: 'getOrganizationIntegrationStatus',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/integrations/{integrationName}/installation_status',
    status: 200,
    document: `query($organizationId: ID!, $integrationName: String!) {
      organizationIntegrationStatus(organizationId: $organizationId, integrationName: $integrationName) { status }
    }`,
  },
  {
    operationId: 'listSiteIntegrations',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/integrations',
    status: 200,
    document: `query($organizationId: ID!, $siteId: ID!, $search: String, $page: String, $limit: Int) {
      siteIntegrations(organizationId: $organizationId, siteId: $siteId, search: $search, ${PAGE}) { items { ...IntegrationFields } ${LISTED} }
    } ${INTEGRATION}`,
  },
  {
    operationId: 'listSpaceIntegrations',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/integrations',
    status: 200,
    document: `query($spaceId: ID!, $search: String, $page: String, $limit: Int) {
      spaceIntegrations(spaceId: $spaceId, search: $search, ${PAGE}) { items { ...IntegrationFields } ${LISTED} }
    } ${INTEGRATION}`,
  },
  {
    operationId: 'listSpaceIntegrationsBlocks',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/integration-blocks',
    status: 200,
    document: `query($spaceId: ID!) {
      spaceIntegrationBlocks(spaceId: $spaceId) { name blocks { id title description icon urlUnfurl markdown { codeblock body } } }
    }`,
  },
];
