import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../logger.js';
import { Policy } from '../auth/policy.js';
import { authenticate, type Viewer } from '../auth/viewer.js';
import { createLoaders, type Loaders } from './loaders.js';

/** What lives for the whole process and is shared by every request. */
export type AppDeps = { orm: Orm; config: Config; clock: Clock; logger: Logger };

/** Per-request state: the viewer, an EntityManager fork, the request's loaders and the policy. */
export type Context = {
  viewer: Viewer | null;
  em: EntityManager;
  loaders: Loaders;
  policy: Policy;
  clock: Clock;
  config: Config;
  logger: Logger;
};

/** Builds a request context; throws a 401 DomainError for a malformed, unknown or revoked token. */
export async function createContext(deps: AppDeps, request: { authorization?: string; logger?: Logger }): Promise<Context> {
  const em = deps.orm.em.fork() as EntityManager;
  const viewer = await authenticate(em, request.authorization);
  return contextFor(deps, em, viewer, request.logger ?? deps.logger);
}

/** A context for a known viewer (or none), as used by the command line and jobs. */
export function contextFor(deps: AppDeps, em: EntityManager, viewer: Viewer | null, logger: Logger = deps.logger): Context {
  const loaders = createLoaders(em, viewer);
  return { viewer, em, loaders, policy: new Policy(viewer, loaders, deps.clock), clock: deps.clock, config: deps.config, logger };
}
