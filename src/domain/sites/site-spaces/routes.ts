import type { Route } from '../../../kernel/rest-route.js';
import { SITE_SPACE } from './fragments.js';

const SITE = '/v1/orgs/{organizationId}/sites/{siteId}';

export const siteSpacesRoutes: Route[] = [
  {
    operationId: 'listSiteSpaces',
    method: 'GET',
    path: `${SITE}/site-spaces`,
    status: 200,
    document: `query($organizationId: ID!, $siteId: ID!, $shareKey: String, $default: Boolean, $page: String, $limit: Int) {
      siteSpaces(organizationId: $organizationId, siteId: $siteId, shareKey: $shareKey, default: $default, page: $page, limit: $limit) {
        items { ...SiteSpaceFields } count next { page }
      }
    } ${SITE_SPACE}`,
  },
  {
    operationId: 'addSpaceToSite',
    method: 'POST',
    path: `${SITE}/site-spaces`,
    status: 201,
    body: 'input',
    document: `mutation($organizationId: ID!, $siteId: ID!, $input: AddSiteSpaceInput!) {
      addSiteSpace(organizationId: $organizationId, siteId: $siteId, input: $input) { ...SiteSpaceFields }
    } ${SITE_SPACE}`,
  },
  {
    operationId: 'deleteSiteSpaceById',
    method: 'DELETE',
    path: `${SITE}/site-spaces/{siteSpaceId}`,
    status: 204,
    document: `mutation($organizationId: ID!, $siteId: ID!, $siteSpaceId: ID!) {
      deleteSiteSpace(organizationId: $organizationId, siteId: $siteId, id: $siteSpaceId)
    }`,
  },
  {
    operationId: 'updateSiteSpaceById',
    method: 'PATCH',
    path: `${SITE}/site-spaces/{siteSpaceId}`,
    status: 200,
    body: 'input',
    document: `mutation($organizationId: ID!, $siteId: ID!, $siteSpaceId: ID!, $input: UpdateSiteSpaceInput!) {
      updateSiteSpace(organizationId: $organizationId, siteId: $siteId, id: $siteSpaceId, input: $input) { ...SiteSpaceFields }
    } ${SITE_SPACE}`,
  },
  {
    operationId: 'moveSiteSpace',
    method: 'POST',
    path: `${SITE}/site-spaces/{siteSpaceId}/move`,
    status: 200,
    optionalBody: true,
    document: `mutation($organizationId: ID!, $siteId: ID!, $siteSpaceId: ID!, $position: SiteSpacePositionInput) {
      moveSiteSpace(organizationId: $organizationId, siteId: $siteId, id: $siteSpaceId, position: $position) { ...SiteSpaceFields }
    } ${SITE_SPACE}`,
  },
];
