import type { RequestHandler } from 'express';
import type { Config } from '../kernel/config.js';

/** GET /: where the doors are, as JSON, for someone who opens the server's address. */
export function doorsIndex(config: Config): RequestHandler {
  const url = (path: string) => `${config.publicUrl}${path}`;
  const index = {
    graphql: { endpoint: url('/graphql'), playground: url('/graphql') },
    rest: { base: url('/v1'), openapi: url('/v1/openapi.json'), reference: url('/docs') },
    health: url('/healthz'),
    authentication: 'Authorization: Bearer <API token>',
  };
  return (_req, res) => {
    res.json(index);
  };
}
