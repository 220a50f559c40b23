import type { Route } from '../../kernel/rest-route.js';
import { SAML_PROVIDER } from './fragments.js';

const PROVIDERS_PATH = '/v1/orgs/{organizationId}/saml';
const PROVIDER_PATH = `${PROVIDERS_PATH}/{samlProviderId}`;

export const samlRoutes: Route[] = [
  {
    operationId: 'listSAMLProvidersInOrganizationById',
    method: 'GET',
    path: PROVIDERS_PATH,
    status: 200,
    document: `query($organizationId: ID!, $page: String, $limit: Int) {
      samlProviders(organizationId: $organizationId, page: $page, limit: $limit) { items { ...SAMLProviderFields } count next { page } }
    } ${SAML_PROVIDER}`,
  },
  {
    operationId: 'createOrganizationSAMLProvider',
    method: 'POST',
    path: PROVIDERS_PATH,
    status: 201,
    body: 'input',
    document: `mutation($organizationId: ID!, $input: CreateSAMLProviderInput!) {
      createSAMLProvider(organizationId: $organizationId, input: $input) { ...SAMLProviderFields }
    } ${SAML_PROVIDER}`,
  },
  {
    operationId: 'getOrganizationSAMLProviderById',
    method: 'GET',
    path: PROVIDER_PATH,
    status: 200,
    document: `query($organizationId: ID!, $samlProviderId: ID!) {
      samlProvider(organizationId: $organizationId, id: $samlProviderId) { ...SAMLProviderFields }
    } ${SAML_PROVIDER}`,
  },
  {
    operationId: 'updateOrganizationSAMLProvider',
    method: 'PATCH',
    path: PROVIDER_PATH,
    status: 200,
    body: 'input',
    document: `mutation($organizationId: ID!, $samlProviderId: ID!, $input: UpdateSAMLProviderInput!, $ifMatch: String) {
      updateSAMLProvider(organizationId: $organizationId, id: $samlProviderId, input: $input, ifMatch: $ifMatch) { ...SAMLProviderFields }
    } ${SAML_PROVIDER}`,
  },
  {
    operationId: 'deleteOrganizationSAMLProvider',
    method: 'DELETE',
    path: PROVIDER_PATH,
    status: 204,
    document: `mutation($organizationId: ID!, $samlProviderId: ID!, $ifMatch: String) { deleteSAMLProvider(organizationId: $organizationId, id: $samlProviderId, ifMatch: $ifMatch) }`,
  },
  {
    // Public (the root field is @public): the login page lists the providers before anyone signs in.
    operationId: 'listSSOProviderLoginsInOrganization',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sso',
    status: 200,
    document: `query($organizationId: ID!) { ssoProviderLogins(organizationId: $organizationId) { items { id label startURL } } }`,
  },
];
