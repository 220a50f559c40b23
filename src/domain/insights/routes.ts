import type { Route } from '../../kernel/rest-route.js';
import { eventBatchJsonSchema } from './events.js';

const INSIGHTS_PATH = '/v1/orgs/{organizationId}/sites/{siteId}/insights';

export const insightsRoutes: Route[] = [
  {
    operationId: 'trackEventsInSiteById',
    method: 'POST',
    path: `${INSIGHTS_PATH}/events`,
    status: 204,
    // The body's bytes go to the domain as they came: parsing and checking a batch runs on worker threads.
    body: 'bytes',
    bodyLimit: (config) => config.insightsBodyLimit,
    bodySchema: (config) => eventBatchJsonSchema(config.insightsMaxBatch),
    document: `mutation($organizationId: ID!, $siteId: ID!, $body: InsightsEventBatch!) {
      trackSiteEvents(siteId: $siteId, organizationId: $organizationId, batch: $body)
    }`,
  },
  {
    operationId: 'aggregateSiteEvents',
    method: 'POST',
    path: `${INSIGHTS_PATH}/events/aggregate`,
    status: 200,
    document: `query($organizationId: ID!, $siteId: ID!, $select: [InsightsColumnInput!], $where: [InsightsFilterInput!],
      $groupBy: [InsightsColumnInput!], $order: InsightsOrderInput, $range: JSON!, $limit: Int) {
      aggregateSiteEvents(siteId: $siteId, organizationId: $organizationId, select: $select, where: $where, groupBy: $groupBy,
        order: $order, range: $range, limit: $limit) {
        columns { column claim values }
      }
    }`,
  },
  {
    operationId: 'listSiteVisitorSegments',
    method: 'GET',
    path: `${INSIGHTS_PATH}/visitor-segments`,
    status: 200,
    document: `query($organizationId: ID!, $siteId: ID!, $page: String, $limit: Int) {
      siteVisitorSegments(siteId: $siteId, organizationId: $organizationId, page: $page, limit: $limit) {
        items { title claims events visitors sessions } count next { page }
      }
    }`,
  },
];
