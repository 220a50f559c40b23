import { type Viewer } from './viewer.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Orm } from './database.js';
import type { Logger } from './logger.js';
import type { Policy } from './policy.js';
import type { RequestOrigin } from './origin.js';
import type { Loaders } from './request-loaders.js';
import type { Lists } from './request-lists.js';
import type { GraphQLResolveInfo } from 'graphql';
import type { Area } from './area.js';

/**
 * What areas add to the server's shared state, and so to every request's context: each area that holds
 * such state declares its part where it defines it (`declare module '…/kernel/context.js'`), and the
 * wiring that starts the server makes and closes it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the areas' declarations
export interface AreaServices {}

/**
 * What lives as long as the server (or command-line session) and is shared by every request. Whatever
 * holds threads, timers or pending work is here, made by whoever starts the server and closed by its
 * `stop()`; modules keep no such state of their own (only caches that can be lost). The infrastructure
 * that holds such state adds its part where it defines it (the event hub, the rate limits).
 */
export interface AppDeps extends AreaServices {
  /** The areas the server is assembled from (src/areas.ts): what makes each request's loaders and lists. */
  areas: readonly Area[];
  orm: Orm;
  config: Config;
  clock: Clock;
  logger: Logger;
  /** What gives a resource's ETag: the doors' (made with the schema), absent for jobs and the command line. */
  representations?: Representations;
}

/**
 * Resources' representations as the REST door answers them (rest-facade/representations.ts), so that a
 * resource's ETag is the one its GET answers, wherever it is asked for: a GraphQL `etag` field, or an
 * `If-Match` checked inside the writing transaction.
 */
export interface Representations {
  /**
   * The strong ETag of the answer the GET operation `operationId` (a REST route's id) gives `ctx`'s
   * viewer for `variables`, read through `ctx` (its transaction, its loaders); null when it answers 404.
   */
  etagOf(ctx: Context, operationId: string, variables: Record<string, unknown>): Promise<string | null>;
}

/** Per-request state: the viewer, an EntityManager fork, the request's loaders and the policy. */
export type Context = AreaServices & {
  /** The server's areas, to make the same request's context afresh. */
  areas: readonly Area[];
  viewer: Viewer | null;
  em: EntityManager;
  loaders: Loaders;
  policy: Policy;
  /** Pages of permission-filtered lists, batched per GraphQL level. */
  lists: Lists;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** Where the request came from (door, operation, client address), for the events it records. */
  origin: RequestOrigin;
  /** What gives a resource's ETag (AppDeps.representations): on the doors' contexts only. */
  representations?: Representations;
  /** Live subscriptions' feed and re-check: only on the WebSocket door. */
  live?: LiveSession;
};

/**
 * What an operation over the WebSocket door holds beyond a request's context: the check each event
 * passes before it is delivered, and what the live area adds (its feed of events).
 */
export interface LiveSession {
  /**
   * Reads the viewer afresh (the token again: still valid, still that user) into a new context, and
   * runs the subscription field's guard there with `args`; answers that context, or throws its refusal.
   */
  recheck(info: GraphQLResolveInfo, args: Record<string, unknown>): Promise<Context>;
}
