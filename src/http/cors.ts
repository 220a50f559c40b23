import cors from 'cors';
import type { RequestHandler } from 'express';

/**
 * What a browser page of an allowed origin may send: the token, JSON bodies, its own request id, an
 * idempotency key, and the headers with which Apollo's CSRF prevention lets a GraphQL GET through.
 */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Request-Id',
  'Idempotency-Key',
  'Apollo-Require-Preflight',
  'X-Apollo-Operation-Name',
  'If-Match',
  'If-None-Match',
];
/** What such a page may read of an answer, beyond the headers browsers always show it. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Location',
  'ETag',
  'Idempotency-Replayed',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** How long a browser may reuse a preflight's answer, in seconds (Chromium caps it at 7200). */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * CORS for both doors and every plain route: `'*'` allows any origin, a list its exact origins (others
 * get no Access-Control-* header, so their browsers keep the answer from the page). With no origin
 * configured nothing is added. Authentication is a bearer token, never a cookie: no credentials mode.
 * A preflight (OPTIONS) answers 204 here, before any route.
 */
export function corsPolicy(origins: '*' | string[]): RequestHandler {
  if (origins !== '*' && origins.length === 0) return (_req, _res, next) => next();
  return cors({
    origin: origins === '*' ? '*' : origins,
    methods: METHODS,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_S,
    optionsSuccessStatus: 204,
  });
}
