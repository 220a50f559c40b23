import type { Route } from '../../kernel/rest-route.js';
import { CHANGE_REQUEST } from '../change-requests/index.js';
import { FILE, LINKS, PAGE } from '../content/index.js';
import { ORGANIZATION } from '../organizations/index.js';
import { SPACE } from './fragments.js';

/** A mutation on one space by id that answers the space. */
const spaceMutation = (operationId: string, path: string, field: string, status: 200 | 201 = 200): Route => ({
  operationId,
  method: 'POST',
  path: `/v1/spaces/{spaceId}${path}`,
  status,
  document: `mutation($spaceId: ID!) { ${field}(id: $spaceId) { ...SpaceFields } } ${SPACE}`,
});

export const spaceRoutes: Route[] = [
  {
    operationId: 'getSpaceById',
    method: 'GET',
    path: '/v1/spaces/{spaceId}',
    status: 200,
    document: `query($spaceId: ID!, $shareKey: String) { space(id: $spaceId, shareKey: $shareKey) { ...SpaceFields } } ${SPACE}`,
  },
  {
    operationId: 'deleteSpaceById',
    method: 'DELETE',
    path: '/v1/spaces/{spaceId}',
    status: 204,
    document: `mutation($spaceId: ID!, $ifMatch: String) { deleteSpace(id: $spaceId, ifMatch: $ifMatch) }`,
  },
  {
    operationId: 'updateSpaceById',
    method: 'PATCH',
    path: '/v1/spaces/{spaceId}',
    status: 200,
    body: 'input',
    document: `mutation($spaceId: ID!, $input: UpdateSpaceInput!, $ifMatch: String) { updateSpace(id: $spaceId, input: $input, ifMatch: $ifMatch) { ...SpaceFields } } ${SPACE}`,
  },
  spaceMutation('duplicateSpace', '/duplicate', 'duplicateSpace', 201),
  spaceMutation('restoreSpace', '/restore', 'restoreSpace'),
  {
    operationId: 'moveSpace',
    method: 'POST',
    path: '/v1/spaces/{spaceId}/move',
    status: 200,
    body: 'input',
    document: `mutation($spaceId: ID!, $input: MoveContentInput!) { moveSpace(id: $spaceId, input: $input) { ...SpaceFields } } ${SPACE}`,
  },
  {
    operationId: 'transferSpace',
    method: 'POST',
    path: '/v1/spaces/{spaceId}/transfer',
    status: 200,
    body: 'input',
    document: `mutation($spaceId: ID!, $input: TransferInput!) { transferSpace(id: $spaceId, input: $input) { ...SpaceFields } } ${SPACE}`,
  },
  {
    operationId: 'createSpace',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/spaces',
    status: 201,
    optionalBody: true,
    body: 'input',
    document: `mutation($organizationId: ID!, $input: CreateSpaceInput!) {
      createSpace(organizationId: $organizationId, input: $input) { ...SpaceFields }
    } ${SPACE}`,
  },
  {
    operationId: 'listSpacesInOrganizationById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/spaces',
    status: 200,
    document: `query($organizationId: ID!, $page: String, $limit: Int) {
      spaces(organizationId: $organizationId, page: $page, limit: $limit) { items { ...SpaceFields } count next { page } }
    } ${SPACE}`,
  },
  {
    operationId: 'listSpaceLinks',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/links',
    status: 200,
    document: `query($spaceId: ID!, $status: String, $page: String, $limit: Int) {
      spaceLinks(spaceId: $spaceId, status: $status, page: $page, limit: $limit) { ...LinkListFields }
    } ${LINKS} ${ORGANIZATION} ${SPACE} ${CHANGE_REQUEST} ${PAGE} ${FILE}`,
  },
];
