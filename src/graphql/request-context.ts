import { type Viewer } from '../kernel/viewer.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../kernel/logger.js';
import { afterPendingConnectionEvents, connectionFailureOf } from '../db/connection-errors.js';
import { Policy } from '../kernel/policy.js';
import type { RequestOrigin } from '../kernel/origin.js';
import { authenticate } from '../auth/authenticate.js';
import type { AppDeps, Context } from '../kernel/context.js';
import { createLists } from './lists.js';
import { createLoaders } from './loaders.js';

/**
 * Builds a request context; throws a 401 DomainError for a malformed, unknown or revoked token. The
 * token's lookup is a read: when its connection was terminated under it, it runs once more.
 */
export async function createContext(deps: AppDeps, request: { authorization?: string; logger?: Logger }): Promise<Context> {
  let em = deps.orm.em.fork();
  let viewer: Viewer | null;
  try {
    viewer = await authenticate(em, request.authorization);
  } catch (error) {
    if (connectionFailureOf(error) !== 'terminated') throw error;
    await afterPendingConnectionEvents();
    em = deps.orm.em.fork();
    viewer = await authenticate(em, request.authorization);
  }
  return contextFor(deps, em, viewer, request.logger ?? deps.logger);
}

/** A context for a known viewer (or none), as used by the command line and jobs. */
export function contextFor(
  deps: Pick<AppDeps, 'areas' | 'config' | 'clock' | 'logger' | 'ingest'>,
  em: EntityManager,
  viewer: Viewer | null,
  logger: Logger = deps.logger,
  origin: RequestOrigin = {},
): Context {
  const { areas } = deps;
  const loaders = createLoaders(areas, em, viewer);
  const policy = new Policy(viewer, loaders, deps.clock);
  return {
    areas,
    viewer,
    em,
    loaders,
    policy,
    lists: createLists(areas, em, policy),
    clock: deps.clock,
    config: deps.config,
    logger,
    ingest: deps.ingest,
    origin,
  };
}

/** The same request's context afresh: same viewer and origin, a new EntityManager fork, empty loaders. */
export const renewContext = (ctx: Context): Context => contextFor(ctx, ctx.em.fork(), ctx.viewer, ctx.logger, ctx.origin);
