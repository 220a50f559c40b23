import type { Request, RequestHandler, Response } from 'express';
import { factsOf } from '../http/request-facts.js';
import type { ServerMetrics } from './registry.js';

/** GraphQL operation names are the clients': at most this many distinct ones get a series of their own. */
export const MAX_GRAPHQL_OPERATIONS = 200;
/** A name worth a series: a GraphQL name of sane length (names are chosen by clients). */
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The status of an answer the client did not wait for (nginx's convention): it never got one. */
const CLIENT_CLOSED = 499;

/**
 * Measures every request: in flight while it is answered, then its duration by operation, door,
 * method and status, once its connection is done with it (answered, or left by the client).
 */
export function measureRequests(metrics: ServerMetrics): RequestHandler {
  const operationOf = operationLabels();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    metrics.requestsInFlight.inc();
    res.once('close', () => {
      metrics.requestsInFlight.dec();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const { operation, door } = operationOf(req, res);
      const status = String(res.writableFinished ? res.statusCode : CLIENT_CLOSED);
      metrics.requestDuration.observe({ operation, door, method: req.method, status }, seconds);
    });
    next();
  };
}

/**
 * The operation and door labels of a request, from its facts (filled by the door that served it),
 * with a bounded number of values: REST operation ids come from the route table; GraphQL operation
 * names from clients, so only the first MAX_GRAPHQL_OPERATIONS sane ones are kept, later ones count as
 * `other`, and an operation without a name is `anonymous`. Plain HTTP routes (health, the OpenAPI document,
 * playground, SAML, files) are named by their route's pattern; what no route served is `unmatched` (never the URL).
 */
function operationLabels() {
  const graphqlNames = new Set<string>();
  const graphqlName = (name: string | undefined) => {
    if (name === undefined) return 'anonymous';
    if (graphqlNames.has(name)) return name;
    if (!OPERATION_NAME.test(name) || graphqlNames.size >= MAX_GRAPHQL_OPERATIONS) return 'other';
    graphqlNames.add(name);
    return name;
  };
  return (req: Request, res: Response): { operation: string; door: string } => {
    const { door, operationId } = factsOf(res);
    if (door === 'rest') return { operation: operationId ?? 'unmatched', door };
    if (door === 'graphql') return { operation: graphqlName(operationId), door };
    return { operation: routeOf(req), door: 'none' };
  };
}

/** `/healthz`, `/v1/openapi.json`, `/saml/:organizationId/acs`, …: the pattern of the route that served it, never its URL. */
function routeOf(req: Request): string {
  if (!req.route) return 'unmatched';
  const path: unknown = req.route.path;
  return `${req.baseUrl}${Array.isArray(path) ? String(path[0]) : String(path)}`;
}
