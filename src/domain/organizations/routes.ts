import type { Route } from '../../kernel/rest-route.js';
import { ORGANIZATION } from './fragments.js';

export const organizationRoutes: Route[] = [
  {
    operationId: 'listOrganizationsForAuthenticatedUser',
    method: 'GET',
    path: '/v1/orgs',
    status: 200,
    document: `query($page: String, $limit: Int) {
      organizations(page: $page, limit: $limit) { items { ...OrganizationFields } count next { page } }
    } ${ORGANIZATION}`,
  },
  {
    operationId: 'createOrganization',
    method: 'POST',
    path: '/v1/orgs',
    status: 201,
    body: 'input',
    document: `mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { ...OrganizationFields } } ${ORGANIZATION}`,
  },
  {
    operationId: 'joinOrganization',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/join',
    status: 204,
    document: `mutation($organizationId: ID!) { joinOrganization(organizationId: $organizationId) { id } }`,
  },
  {
    operationId: 'getOrganizationById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}',
    status: 200,
    document: `query($organizationId: ID!) { organization(id: $organizationId) { ...OrganizationFields } } ${ORGANIZATION}`,
  },
  {
    operationId: 'updateOrganizationById',
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}',
    status: 200,
    body: 'input',
    document: `mutation($organizationId: ID!, $input: UpdateOrganizationInput!, $ifMatch: String) {
      updateOrganization(id: $organizationId, input: $input, ifMatch: $ifMatch) { ...OrganizationFields }
    } ${ORGANIZATION}`,
  },
  {
    operationId: 'getOrganizationsForEmailDomain',
    method: 'GET',
    path: '/v1/email-domains/{emailDomain}/orgs',
    status: 200,
    document: `query($emailDomain: String!) {
      organizationsForEmailDomain(emailDomain: $emailDomain) { organizations { ...OrganizationFields } }
    } ${ORGANIZATION}`,
  },
  {
    operationId: 'updateOrganizationMemberLastSeenAt',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/ping',
    status: 200,
    document: `mutation($organizationId: ID!) { pingOrganization(id: $organizationId) { serviceVisitorClaims } }`,
  },
];
