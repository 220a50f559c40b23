import type { Route } from '../../kernel/rest-route.js';

export const searchRoutes: Route[] = [
  {
    operationId: 'searchOrganizationContent',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/search',
    status: 200,
    document: `query($organizationId: ID!, $query: String!, $page: String, $limit: Int) {
      searchOrganizationContent(organizationId: $organizationId, query: $query, page: $page, limit: $limit) {
        items { id title pages { id title path urls { app } sections { id title path body urls { app } } } }
        count next { page }
      }
    }`,
  },
];
