import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type RequestHandler } from 'express';
import type { MetricsConfig } from '../kernel/config.js';
import { sendError } from '../http/responses.js';
import type { Logger } from '../kernel/logger.js';
import type { ServerMetrics } from './registry.js';

export const METRICS_PATH = '/metrics';

/**
 * Where `/metrics` is served. Secure by default: metrics tell how the server is used (operation
 * names, volumes, the queue), so nobody reads them unless the operator said who may.
 * - METRICS_PORT set: on that port only (bound to METRICS_HOST, loopback by default), never the main port;
 * - else METRICS_TOKEN set: on the main port, to callers sending it as a bearer token;
 * - else nowhere: `/metrics` answers 404 like any unknown path.
 * With both set, the separate port requires the token too.
 */
export const servesOnMainPort = (config: MetricsConfig): boolean => config.port === undefined && config.token !== undefined;

/** `/metrics`: the registry in Prometheus' text format, to a caller with the bearer token when one is configured. */
export function metricsEndpoint(metrics: ServerMetrics, config: MetricsConfig, logger: Logger): RequestHandler {
  const expected = config.token === undefined ? undefined : digest(config.token);
  return async (req, res) => {
    if (expected && !hasToken(req.headers.authorization, expected)) {
      return sendError(res, 401, 'Metrics require "Authorization: Bearer <METRICS_TOKEN>"', { 'www-authenticate': 'Bearer' });
    }
    try {
      const text = await metrics.registry.metrics();
      res.set('content-type', metrics.registry.contentType).set('cache-control', 'no-store').send(text);
    } catch (err) {
      logger.error({ err }, 'metrics: collecting failed');
      sendError(res, 500, 'Internal server error');
    }
  };
}

/** The application of the separate metrics port: `/metrics`, and 404 for anything else. */
export function metricsApp(metrics: ServerMetrics, config: MetricsConfig, logger: Logger): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.get(METRICS_PATH, metricsEndpoint(metrics, config, logger));
  app.use((_req, res) => sendError(res, 404, 'No such resource: this port serves /metrics only'));
  return app;
}

/** Compared as digests of equal length, in constant time: neither the token nor its length leaks through timing. */
const digest = (text: string) => createHash('sha256').update(text).digest();

function hasToken(authorization: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]), expected);
}
