import type { Route } from '../../kernel/rest-route.js';
import { SPACE } from '../spaces/index.js';
import { COLLECTION } from './fragments.js';

export const collectionRoutes: Route[] = [
  {
    operationId: 'getCollectionById',
    method: 'GET',
    path: '/v1/collections/{collectionId}',
    status: 200,
    document: `query($collectionId: ID!) { collection(id: $collectionId) { ...CollectionFields } } ${COLLECTION}`,
  },
  {
    operationId: 'deleteCollectionById',
    method: 'DELETE',
    path: '/v1/collections/{collectionId}',
    status: 204,
    document: `mutation($collectionId: ID!, $ifMatch: String) { deleteCollection(id: $collectionId, ifMatch: $ifMatch) }`,
  },
  {
    operationId: 'updateCollectionById',
    method: 'PATCH',
    path: '/v1/collections/{collectionId}',
    status: 200,
    body: 'input',
    document: `mutation($collectionId: ID!, $input: UpdateCollectionInput!, $ifMatch: String) {
      updateCollection(id: $collectionId, input: $input, ifMatch: $ifMatch) { ...CollectionFields }
    } ${COLLECTION}`,
  },
  {
    operationId: 'listSpacesInCollectionById',
    method: 'GET',
    path: '/v1/collections/{collectionId}/spaces',
    status: 200,
    document: `query($collectionId: ID!, $page: String, $limit: Int) {
      collectionSpaces(collectionId: $collectionId, page: $page, limit: $limit) { items { ...SpaceFields } count next { page } }
    } ${SPACE}`,
  },
  {
    operationId: 'moveCollection',
    method: 'POST',
    path: '/v1/collections/{collectionId}/move',
    status: 200,
    body: 'input',
    document: `mutation($collectionId: ID!, $input: MoveContentInput!) {
      moveCollection(id: $collectionId, input: $input) { ...CollectionFields }
    } ${COLLECTION}`,
  },
  {
    operationId: 'transferCollection',
    method: 'POST',
    path: '/v1/collections/{collectionId}/transfer',
    status: 200,
    body: 'input',
    document: `mutation($collectionId: ID!, $input: TransferInput!) {
      transferCollection(id: $collectionId, input: $input) { ...CollectionFields }
    } ${COLLECTION}`,
  },
  {
    operationId: 'listCollectionsInOrganizationById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/collections',
    status: 200,
    document: `query($organizationId: ID!, $nested: Boolean, $page: String, $limit: Int) {
      collections(organizationId: $organizationId, nested: $nested, page: $page, limit: $limit) {
        items { ...CollectionFields } count next { page }
      }
    } ${COLLECTION}`,
  },
  {
    operationId: 'createCollection',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/collections',
    status: 201,
    optionalBody: true,
    body: 'input',
    document: `mutation($organizationId: ID!, $input: CreateCollectionInput!) {
      createCollection(organizationId: $organizationId, input: $input) { ...CollectionFields }
    } ${COLLECTION}`,
  },
];
