import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../logger.js';
import { afterPendingConnectionEvents, connectionFailureOf } from '../db/connection-errors.js';
import { Policy } from '../auth/policy.js';
import type { IngestState } from '../domain/insights/ingest-state.js';
import { authenticate, type Viewer } from '../auth/viewer.js';
import { createLists, type Lists } from './lists.js';
import { createLoaders, type Loaders } from './loaders.js';

/**
 * What lives as long as the server (or command-line session) and is shared by every request. Whatever
 * holds threads, timers or pending work is here, made by whoever starts the server and closed by its
 * `stop()`; modules keep no such state of their own (only caches that can be lost).
 */
export type AppDeps = { orm: Orm; config: Config; clock: Clock; logger: Logger; ingest: IngestState };

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
};

/**
 * Builds a request context; throws a 401 DomainError for a malformed, unknown or revoked token. The
 * token's lookup is a read: when its connection was terminated under it, it runs once more.
 */
export async function createContext(deps: AppDeps, request: { authorization?: string; logger?: Logger }): Promise<Context> {
  let em = deps.orm.em.fork() as EntityManager;
  let viewer: Viewer | null;
  try {
    viewer = await authenticate(em, request.authorization);
  } catch (error) {
    if (connectionFailureOf(error) !== 'terminated') throw error;
    await afterPendingConnectionEvents();
    em = deps.orm.em.fork() as EntityManager;
    viewer = await authenticate(em, request.authorization);
  }
  return contextFor(deps, em, viewer, request.logger ?? deps.logger);
}

/** A context for a known viewer (or none), as used by the command line and jobs. */
export function contextFor(deps: Pick<AppDeps, 'config' | 'clock' | 'logger' | 'ingest'>, em: EntityManager, viewer: Viewer | null, logger: Logger = deps.logger): Context {
  const loaders = createLoaders(em, viewer);
  const policy = new Policy(viewer, loaders, deps.clock);
  return { viewer, em, loaders, policy, lists: createLists(em, policy), clock: deps.clock, config: deps.config, logger, ingest: deps.ingest };
}

/** The same request's context afresh: same viewer, a new EntityManager fork, empty loaders. */
export const renewContext = (ctx: Context): Context => contextFor(ctx, ctx.em.fork() as EntityManager, ctx.viewer, ctx.logger);
