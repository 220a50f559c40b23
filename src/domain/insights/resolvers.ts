import { badRequest } from '../../kernel/errors.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { aggregateSiteEvents } from './aggregate.js';
import { trackSiteEvents, trackSiteEventsBody } from './ingest.js';
import { listVisitorSegments } from './segments.js';

/** Site insights: event ingestion, aggregate queries and visitor segments. */
export const insightsResolvers: Resolvers = {
  Query: {
    aggregateSiteEvents: (_, { siteId, ...request }, ctx) => aggregateSiteEvents(ctx, siteId, request),
    siteVisitorSegments: (_, { siteId, ...args }, ctx) => listVisitorSegments(ctx, siteId, args),
  },
  Mutation: {
    trackSiteEvents: async (_, { siteId, events, batch }, ctx) => {
      if ((events == null) === (batch == null)) throw badRequest('events: give the events either as `events` or as `batch`, one of them');
      // The InsightsEventBatch scalar gives a string (a literal) or the bytes of a variable.
      if (batch != null) await trackSiteEventsBody(ctx, siteId, typeof batch === 'string' ? Buffer.from(batch) : batch);
      else await trackSiteEvents(ctx, siteId, events!);
      return true;
    },
  },
};
