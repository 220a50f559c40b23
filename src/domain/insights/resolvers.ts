import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import { aggregateSiteEvents, type AggregateRequest } from './aggregate.js';
import { trackSiteEvents, trackSiteEventsBody } from './ingest.js';
import { listVisitorSegments } from './segments.js';

type SiteId = { siteId: string };

/** Site insights: event ingestion, aggregate queries and visitor segments. */
export const insightsResolvers: Resolvers = {
  Query: {
    aggregateSiteEvents: (_: unknown, { siteId, ...request }: SiteId & AggregateRequest, ctx: Context) => aggregateSiteEvents(ctx, siteId, request),
    siteVisitorSegments: (_: unknown, { siteId, ...args }: SiteId & PageArgs, ctx: Context) => listVisitorSegments(ctx, siteId, args),
  },
  Mutation: {
    trackSiteEvents: async (
      _: unknown,
      { siteId, events, batch }: SiteId & { events?: unknown[] | null; batch?: Uint8Array | string | null },
      ctx: Context,
    ) => {
      if ((events == null) === (batch == null)) throw badRequest('events: give the events either as `events` or as `batch`, one of them');
      if (batch != null) await trackSiteEventsBody(ctx, siteId, typeof batch === 'string' ? Buffer.from(batch) : batch);
      else await trackSiteEvents(ctx, siteId, events!);
      return true;
    },
  },
};
