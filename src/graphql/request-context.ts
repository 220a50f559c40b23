import { type Viewer } from '../kernel/viewer.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../kernel/logger.js';
import { afterPendingConnectionEvents, connectionFailureOf } from '../db/connection-errors.js';
import { Policy } from '../kernel/policy.js';
import type { RequestOrigin } from '../kernel/origin.js';
import { authenticate } from '../auth/authenticate.js';
import type { AppDeps, Context } from '../kernel/context.js';
import { createLists } from './lists.js';
import { createLoaders, forgetLoaded } from './loaders.js';
import { afterCommittedWrites, ownEntityManager } from '../db/writes.js';
import { noteCommittedWrite } from '../db/read-routing.js';

/**
 * Builds a request context; throws a 401 DomainError for a malformed, unknown or revoked token. The
 * token's lookup is a read: when its connection was terminated under it, it runs once more. A request
 * whose token a step before the door already resolved (`authenticated`) is not looked up again.
 */
export async function createContext(
  deps: AppDeps,
  request: { authorization?: string; logger?: Logger; authenticated?: { em: EntityManager; viewer: Viewer } },
): Promise<Context> {
  if (request.authenticated) return contextFor(deps, request.authenticated.em, request.authenticated.viewer, request.logger ?? deps.logger);
  let em = ownEntityManager(deps.orm.em);
  let viewer: Viewer | null;
  try {
    viewer = await authenticate(em, request.authorization, deps.clock);
  } catch (error) {
    if (connectionFailureOf(error) !== 'terminated') throw error;
    await afterPendingConnectionEvents();
    em = ownEntityManager(deps.orm.em);
    viewer = await authenticate(em, request.authorization, deps.clock);
  }
  return contextFor(deps, em, viewer, request.logger ?? deps.logger);
}

/**
 * A context for a known viewer (or none), as used by the command line and jobs, on an EntityManager of
 * its own (`ownEntityManager`). Whatever that EntityManager commits makes the context forget all it has
 * read (loaders, lists, memoized roles): the next read sees the change, and no write lists what to forget.
 */
export function contextFor(
  deps: Pick<AppDeps, 'areas' | 'config' | 'clock' | 'logger' | 'ingest' | 'representations'>,
  em: EntityManager,
  viewer: Viewer | null,
  logger: Logger = deps.logger,
  origin: RequestOrigin = {},
): Context {
  const { areas } = deps;
  const loaders = createLoaders(areas, em, viewer);
  const policy = new Policy(viewer, loaders, deps.clock);
  const context: Context = {
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
    representations: deps.representations,
    origin,
  };
  afterCommittedWrites(em, () => {
    noteCommittedWrite(em);
    forgetLoaded(loaders);
    policy.forget();
    // In place: the GraphQL server hands resolvers a shallow copy of the context.
    Object.assign(context.lists, createLists(areas, em, policy));
  });
  return context;
}

/** The same request's context afresh: same viewer and origin, a new EntityManager fork, empty loaders. */
export const renewContext = (ctx: Context): Context => contextFor(ctx, ownEntityManager(ctx.em), ctx.viewer, ctx.logger, ctx.origin);
