import type { RequestHandler } from 'express';
import { routes } from '../rest-facade/routes/index.js';
import { BACKUP_PATH } from './backup/archive.js';
import { sendError } from './http/responses.js';

/** A path the server serves (`{name}` or `:name` for a segment) and the methods it answers there. */
export type KnownPath = { path: string; methods: string[] };

/** The paths outside the REST route table (the routers of src/http/, the GraphQL door, the index). */
export const PLAIN_PATHS: KnownPath[] = [
  { path: '/', methods: ['GET'] },
  { path: '/healthz', methods: ['GET'] },
  { path: '/graphql', methods: ['GET', 'POST'] },
  { path: '/graphql/assets/:name', methods: ['GET'] },
  { path: '/saml/:providerId/start', methods: ['GET'] },
  { path: '/saml/:providerId/acs', methods: ['POST'] },
  { path: '/saml/:providerId/metadata', methods: ['GET'] },
  { path: '/files/:key/:name', methods: ['GET'] },
  { path: '/pdf/:spaceId', methods: ['GET'] },
  { path: BACKUP_PATH, methods: ['GET'] },
  { path: '/v1/openapi.json', methods: ['GET'] },
  { path: '/v1/openapi.yaml', methods: ['GET'] },
  { path: '/docs', methods: ['GET'] },
  { path: '/docs/assets/:name', methods: ['GET'] },
];

/** Every REST operation's path and method, from the route table. */
export const restPaths = (): KnownPath[] => routes.map((route) => ({ path: route.path, methods: [route.method] }));

type Matcher = { pattern: RegExp; methods: Set<string> };

/** As express matches: a parameter is one non-empty segment; a trailing slash is allowed. */
function matcherOf(path: string): RegExp {
  const source = path
    .split(/(\{\w+\}|:\w+)/)
    .map((part, index) => (index % 2 ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`, 'i');
}

/** The methods that `path` answers, for the Allow header (HEAD wherever GET is), or null for an unknown path. */
function allowedAt(matchers: Matcher[], path: string): string[] | null {
  const methods = new Set<string>();
  for (const matcher of matchers) if (matcher.pattern.test(path)) for (const method of matcher.methods) methods.add(method);
  if (!methods.size) return null;
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  return order.filter((method) => methods.has(method));
}

/**
 * A method a known path does not answer is 405 with `Allow` in the contract's error body, not 404; an
 * OPTIONS that is no CORS preflight answers 204 with `Allow`. Unknown paths go on (to the 404).
 */
export function allowedMethods(known: KnownPath[]): RequestHandler {
  const matchers = new Map<string, Matcher>();
  for (const { path, methods } of known) {
    const matcher = matchers.get(path) ?? { pattern: matcherOf(path), methods: new Set<string>() };
    for (const method of methods) matcher.methods.add(method);
    matchers.set(path, matcher);
  }
  const all = [...matchers.values()];
  return (req, res, next) => {
    const allowed = allowedAt(all, req.path);
    if (!allowed || (allowed.includes(req.method) && req.method !== 'OPTIONS')) return next();
    res.setHeader('allow', allowed.join(', '));
    if (req.method === 'OPTIONS') return res.status(204).end();
    return sendError(res, 405, `${req.method} is not allowed on ${req.path}: use ${allowed.filter((m) => m !== 'OPTIONS' && m !== 'HEAD').join(', ')}`);
  };
}
