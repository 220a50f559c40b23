import type { Route } from '../../../kernel/rest-route.js';
import { SHARE_LINK } from './fragments.js';

const SITE = '/v1/orgs/{organizationId}/sites/{siteId}';

export const shareLinksRoutes: Route[] = [
  {
    operationId: 'listSiteShareLinks',
    method: 'GET',
    path: `${SITE}/share-links`,
    status: 200,
    document: `query($organizationId: ID!, $siteId: ID!, $page: String, $limit: Int) {
      shareLinks(organizationId: $organizationId, siteId: $siteId, page: $page, limit: $limit) {
        items { ...ShareLinkFields } count next { page }
      }
    } ${SHARE_LINK}`,
  },
  {
    operationId: 'createSiteShareLink',
    method: 'POST',
    path: `${SITE}/share-links`,
    status: 201,
    body: 'input',
    document: `mutation($organizationId: ID!, $siteId: ID!, $input: CreateShareLinkInput!) {
      createShareLink(organizationId: $organizationId, siteId: $siteId, input: $input) { ...ShareLinkFields }
    } ${SHARE_LINK}`,
  },
  {
    operationId: 'deleteSiteShareLinkById',
    method: 'DELETE',
    path: `${SITE}/share-links/{shareLinkId}`,
    status: 204,
    document: `mutation($organizationId: ID!, $siteId: ID!, $shareLinkId: ID!) {
      deleteShareLink(organizationId: $organizationId, siteId: $siteId, id: $shareLinkId)
    }`,
  },
  {
    operationId: 'updateSiteShareLinkById',
    method: 'PATCH',
    path: `${SITE}/share-links/{shareLinkId}`,
    status: 200,
    body: 'input',
    document: `mutation($organizationId: ID!, $siteId: ID!, $shareLinkId: ID!, $input: UpdateShareLinkInput!) {
      updateShareLink(organizationId: $organizationId, siteId: $siteId, id: $shareLinkId, input: $input) { ...ShareLinkFields }
    } ${SHARE_LINK}`,
  },
];
