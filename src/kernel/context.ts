import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from './clock.js';
import type { Config } from '../config.js';
import type { Orm } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { Policy } from '../auth/policy.js';
import type { Viewer } from '../auth/viewer.js';
import type { EventHub } from '../events/hub.js';
import type { RequestOrigin } from '../events/origin.js';
import type { IngestState } from '../domain/insights/index.js';
import type { Loaders } from './request-loaders.js';
import type { Lists } from './request-lists.js';
import type { LiveFeed } from '../domain/live/index.js';
import type { GraphQLResolveInfo } from 'graphql';
import type { RateLimits } from '../rate-limits/rate-limits.js';

/**
 * What lives as long as the server (or command-line session) and is shared by every request. Whatever
 * holds threads, timers or pending work is here, made by whoever starts the server and closed by its
 * `stop()`; modules keep no such state of their own (only caches that can be lost).
 */
export type AppDeps = {
  orm: Orm;
  config: Config;
  clock: Clock;
  logger: Logger;
  ingest: IngestState;
  rateLimits: RateLimits;
  /** This process's ear on the outbox: committed domain events, from every instance. */
  events: EventHub;
};

/** Per-request state: the viewer, an EntityManager fork, the request's loaders and the policy. */
export type Context = {
  viewer: Viewer | null;
  em: EntityManager;
  loaders: Loaders;
  policy: Policy;
  /** Pages of permission-filtered lists, batched per GraphQL level. */
  lists: Lists;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** The server's ingestion workers and group commit. */
  ingest: IngestState;
  /** Where the request came from (door, operation, client address), for the events it records. */
  origin: RequestOrigin;
  /** Live subscriptions' feed and re-check: only on the WebSocket door. */
  live?: LiveSession;
};

/**
 * What an operation over the WebSocket door holds beyond a request's context: the process's feed of
 * events, and the check each event passes before it is delivered.
 */
export type LiveSession = {
  feed: LiveFeed;
  /**
   * Reads the viewer afresh (the token again: still valid, still that user) into a new context, and
   * runs the subscription field's guard there with `args`; answers that context, or throws its refusal.
   */
  recheck(info: GraphQLResolveInfo, args: Record<string, unknown>): Promise<Context>;
};
