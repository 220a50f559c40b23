import type { Route } from '../../kernel/rest-route.js';
import { OPENAPI_SPEC, OPENAPI_SPEC_VERSION } from './fragments.js';

const LIST_PATH = '/v1/orgs/{organizationId}/openapi';
const ONE_PATH = `${LIST_PATH}/{specSlug}`;
const VERSIONS_PATH = `${ONE_PATH}/versions`;

const SPEC_ARGS = 'organizationId: $organizationId, specSlug: $specSlug';

/**
 * A version's routes: the newest's (`latest`, routed first so that it is never taken for a version id)
 * and, where 0.202.0 has it, one's by id. `selection` is what the root field answers, `fragments`
 * the fragments it spreads.
 */
function versionRoutes(field: string, selection: string, suffix: string, names: { latest: string; byId?: string }, fragments = ''): Route[] {
  const route = (operationId: string, byId: boolean): Route => ({
    operationId,
    method: 'GET',
    path: `${VERSIONS_PATH}/${byId ? '{versionId}' : 'latest'}${suffix}`,
    status: 200,
    document: `query($organizationId: ID!, $specSlug: String!${byId ? ', $versionId: ID!' : ''}) {
      ${field}(${SPEC_ARGS}${byId ? ', versionId: $versionId' : ''}) ${selection}
    } ${fragments}`,
  });
  return [route(names.latest, false), ...(names.byId ? [route(names.byId, true)] : [])];
}

const CONTENT = '{ filesystem urls { source public } }';

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
    document: `mutation($organizationId: ID!, $specSlug: String!, $input: PutOpenAPISpecInput!, $ifMatch: String) {
      putOpenAPISpec(organizationId: $organizationId, specSlug: $specSlug, input: $input, ifMatch: $ifMatch) { created spec { ...OpenAPISpecFields } }
    } ${OPENAPI_SPEC}`,
  },
  {
    operationId: 'updateOpenAPISpecBySlug',
    method: 'PATCH',
    path: ONE_PATH,
    status: 200,
    body: 'input',
    document: `mutation($organizationId: ID!, $specSlug: String!, $input: UpdateOpenAPISpecInput!, $ifMatch: String) {
      updateOpenAPISpec(${SPEC_ARGS}, input: $input, ifMatch: $ifMatch) { ...OpenAPISpecFields }
    } ${OPENAPI_SPEC}`,
  },
  {
    operationId: 'deleteOpenAPISpecBySlug',
    method: 'DELETE',
    path: ONE_PATH,
    status: 204,
    document: `mutation($organizationId: ID!, $specSlug: String!, $ifMatch: String) { deleteOpenAPISpec(organizationId: $organizationId, specSlug: $specSlug, ifMatch: $ifMatch) }`,
  },
  {
    operationId: 'listOpenAPISpecVersions',
    method: 'GET',
    path: VERSIONS_PATH,
    status: 200,
    document: `query($organizationId: ID!, $specSlug: String!, $page: String, $limit: Int) {
      openAPISpecVersions(${SPEC_ARGS}, page: $page, limit: $limit) { items { ...OpenAPISpecVersionFields } count next { page } }
    } ${OPENAPI_SPEC_VERSION}`,
  },
  ...versionRoutes('openAPISpecVersionRawContent', '{ text format }', '/content/raw', { latest: 'getLatestOpenAPISpecVersionContentRaw' }),
  ...versionRoutes('openAPISpecVersionContent', CONTENT, '/content', {
    latest: 'getLatestOpenAPISpecVersionContent',
    byId: 'getOpenAPISpecVersionContentById',
  }),
  ...versionRoutes(
    'openAPISpecVersion',
    '{ ...OpenAPISpecVersionFields }',
    '',
    { latest: 'getLatestOpenAPISpecVersion', byId: 'getOpenAPISpecVersionById' },
    OPENAPI_SPEC_VERSION,
  ),
];
