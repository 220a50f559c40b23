import type { RequestHandler } from 'express';
import sql from 'sql-template-tag';
import { executeReturning } from '../db/statements.js';
import type { AppDeps } from '../kernel/context.js';
import { answerNotReady } from './http-server.js';

/**
 * GET /healthz: 200 while the database answers, 503 when it does not. While draining, the requests
 * that still come (on open connections) are served, but the instance is not ready.
 */
export function healthCheck(deps: AppDeps, lifecycle: { stopping(): boolean }): RequestHandler {
  return async (_req, res) => {
    if (lifecycle.stopping()) return answerNotReady(res, 'stopping');
    try {
      await executeReturning(deps.orm.em.fork(), sql`select 1`);
      res.json({ status: 'ok' });
    } catch {
      res.status(503).json({ status: 'unavailable', error: { code: 503, message: 'Database unavailable' } });
    }
  };
}
