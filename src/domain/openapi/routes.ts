import type { Route } from '../../kernel/rest-route.js';
import { OPENAPI_SPEC } from './fragments.js';

const LIST_PATH = '/v1/orgs/{organizationId}/openapi';
const ONE_PATH = `${LIST_PATH}/{specSlug}`;

export const openAPIRoutes: Route[] = [
  {
    operationId: 'listOpenAPISpecs',
    method: 'GET',
    path: LIST_PATH,
    status: 200,
    document: `query($organizationId: ID!, $page: String, $limit: Int) {
      openAPISpecs(organizationId: $organizationId, page: $page, limit: $limit) { items { ...OpenAPISpecFields } count next { page } }
    } ${OPENAPI_SPEC}`,
  },
  {
    operationId: 'createOpenAPISpec',
    method: 'POST',
    path: LIST_PATH,
    status: 201,
    body: 'input',
    document: `mutation($organizationId: ID!, $input: CreateOpenAPISpecInput!) {
      createOpenAPISpec(organizationId: $organizationId, input: $input) { ...OpenAPISpecFields }
    } ${OPENAPI_SPEC}`,
  },
  {
    operationId: 'getOpenAPISpecBySlug',
    method: 'GET',
    path: ONE_PATH,
    status: 200,
    document: `query($organizationId: ID!, $specSlug: String!) {
      openAPISpec(organizationId: $organizationId, specSlug: $specSlug) { ...OpenAPISpecFields }
    } ${OPENAPI_SPEC}`,
  },
  {
    // 201 when the PUT created the specification, 200 when it replaced its source.
    operationId: 'createOrUpdateOpenAPISpecBySlug',
    method: 'PUT',
    path: ONE_PATH,
    status: 200,
    body: 'input',
    upsert: { entity: 'spec' },
    document: `mutation($organizationId: ID!, $specSlug: String!, $input: PutOpenAPISpecInput!) {
      putOpenAPISpec(organizationId: $organizationId, specSlug: $specSlug, input: $input) { created spec { ...OpenAPISpecFields } }
    } ${OPENAPI_SPEC}`,
  },
  {
    operationId: 'deleteOpenAPISpecBySlug',
    method: 'DELETE',
    path: ONE_PATH,
    status: 204,
    document: `mutation($organizationId: ID!, $specSlug: String!) { deleteOpenAPISpec(organizationId: $organizationId, specSlug: $specSlug) }`,
  },
];
