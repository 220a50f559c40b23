import type { Context } from '../../graphql/context.js';
import type { PageArgs } from '../../graphql/pagination.js';
import type { Resolvers } from '../../graphql/resolver-types.js';
import { aggregateSiteEvents, type AggregateRequest } from './aggregate.js';
import { trackSiteEvents } from './ingest.js';
import { listVisitorSegments } from './segments.js';

type SiteId = { siteId: string };

/** Site insights: event ingestion, aggregate queries and visitor segments. */
export const insightsResolvers: Resolvers = {
  Query: {
    aggregateSiteEvents: (_: unknown, { siteId, ...request }: SiteId & AggregateRequest, ctx: Context) => aggregateSiteEvents(ctx, siteId, request),
    siteVisitorSegments: (_: unknown, { siteId, ...args }: SiteId & PageArgs, ctx: Context) => listVisitorSegments(ctx, siteId, args),
  },
  Mutation: {
    trackSiteEvents: async (_: unknown, { siteId, events }: SiteId & { events: unknown[] }, ctx: Context) => {
      await trackSiteEvents(ctx, siteId, events);
      return true;
    },
  },
};
