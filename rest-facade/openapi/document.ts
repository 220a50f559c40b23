import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GraphQLSchema } from 'graphql';
import { areas } from '../../src/areas.js';
import type { Config } from '../../src/kernel/config.js';
import type { Route } from '../route.js';
import { routes as routeTable } from '../routes/index.js';
import { Components, type JsonSchema } from './components.js';
import { ERROR_BODY, errorResponseComponents } from './errors.js';
import { operationOf } from './operation.js';
import { revalidationHeaders, revalidationParameters, revalidationResponses } from './revalidation.js';
import { SelectionSchemas } from './selection.js';

/** The server's package.json: the nearest above this module, from the sources or from a build's output. */
function serverPackage(): { version: string } {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { version: string };
    if (dirname(dir) === dir) throw new Error('OpenAPI: no package.json above rest-facade/openapi');
  }
}
const packageJson = serverPackage();

/** The area that declares each route, as its tag (operations grouped as the domain is). */
const tagOf = new Map<Route, string>(areas.flatMap((area) => ('routes' in area ? area.routes.map((route) => [route, area.name] as const) : [])));

const SAME_SERVER = { url: '/v1', description: 'The server this document came from' };

/**
 * PUBLIC_URL's `/v1` first when it is set, for clients that read a saved copy of the document; and
 * always the relative `/v1`, which resolves against where the document was fetched (OpenAPI 3.1: a
 * server URL is relative to the document's). Without PUBLIC_URL the relative one only: the local default
 * (`http://localhost:PORT`) is not where a browser on `127.0.0.1` or another machine reached the server.
 */
function serversOf(config: Config): { url: string; description: string }[] {
  return config.publicUrlConfigured ? [{ url: `${config.publicUrl}/v1`, description: 'PUBLIC_URL' }, SAME_SERVER] : [SAME_SERVER];
}

/**
 * The OpenAPI 3.1 document of the REST door, made from the route table and the GraphQL schema: each
 * route's path, parameters, body, success and failure answers (see operation.ts). Paths are relative to
 * the `/v1` server, as in the public reference.
 */
export function openApiDocument(schema: GraphQLSchema, config: Config, routes: readonly Route[] = routeTable): JsonSchema {
  const components = new Components();
  const selections = new SelectionSchemas(schema, components);
  components.schemas.Error = ERROR_BODY;
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = route.path.replace(/^\/v1/, '');
    (paths[path] ??= {})[route.method.toLowerCase()] = operationOf(route, { schema, components, selections, config, tag: tagOf.get(route) });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Docs platform management API (REST)',
      version: packageJson.version,
      description:
        'The REST door of the server, generated from its route table and GraphQL schema. Send an API token as `Authorization: Bearer <token>`. ' +
        'Failures answer `{"error": {"code": <status>, "message": "..."}}`. The same operations are GraphQL queries and mutations at `/graphql`. ' +
        'Every GET answers a strong `ETag` (`If-None-Match` → 304); the PATCH, PUT and DELETE of a resource with a GET take it as `If-Match` ' +
        '(412 when the resource changed since); a POST with an `Idempotency-Key` runs once (422 for another request with the key, 409 while the first runs).',
    },
    servers: serversOf(config),
    security: [{ bearerAuth: [] }],
    tags: [...new Set(tagOf.values())].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token (`cli tokens create`, or the one printed on first start).' },
      },
      schemas: components.schemas,
      headers: revalidationHeaders(),
      parameters: revalidationParameters(),
      responses: { ...errorResponseComponents(), ...revalidationResponses() },
    },
  };
}
