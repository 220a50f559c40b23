import type { Route } from '../../kernel/rest-route.js';

const PAGE_RESULT = `id title description path score rank ancestors { title } urls { app } sections { id title path body score urls { app } }`;
const SPACE_RESULT = `type id title score pages { ${PAGE_RESULT} }`;

export const searchRoutes: Route[] = [
  {
    operationId: 'searchOrganizationContent',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/search',
    status: 200,
    document: `query($organizationId: ID!, $query: String!, $page: String, $limit: Int) {
      searchOrganizationContent(organizationId: $organizationId, query: $query, page: $page, limit: $limit) {
        items { ${SPACE_RESULT} }
        count next { page }
      }
    }`,
  },
  {
    operationId: 'searchSpaceContent',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/search',
    status: 200,
    document: `query($spaceId: ID!, $query: String!, $page: String, $limit: Int) {
      searchSpaceContent(spaceId: $spaceId, query: $query, page: $page, limit: $limit) {
        items { ${PAGE_RESULT} }
        count next { page }
      }
    }`,
  },
  {
    operationId: 'searchSiteContent',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/search',
    status: 200,
    body: 'input',
    document: `query($organizationId: ID!, $siteId: ID!, $input: SiteSearchInput!, $page: String, $limit: Int) {
      searchSiteContent(organizationId: $organizationId, siteId: $siteId, input: $input, page: $page, limit: $limit) {
        items { ${SPACE_RESULT} }
        count next { page }
      }
    }`,
  },
];
