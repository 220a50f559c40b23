import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A valid OpenAPI 3.0 document whose operations reach their schemas through `$ref`s. */
export const OPENAPI_3 = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.2.3' },
  paths: {
    '/pets': {
      get: { operationId: 'listPets', summary: 'List pets', tags: ['pets'], responses: { '200': { $ref: '#/components/responses/Pets' } } },
      post: { operationId: 'createPet', summary: 'Create a pet', deprecated: true, responses: { '201': { description: 'Created' } } },
    },
    '/pets/{petId}': {
      parameters: [{ $ref: '#/components/parameters/PetId' }],
      get: { operationId: 'getPet', summary: 'Get a pet', description: 'One pet', responses: { '200': { description: 'A pet' } } },
    },
  },
  components: {
    parameters: { PetId: { name: 'petId', in: 'path', required: true, schema: { type: 'string' } } },
    schemas: { Pet: { type: 'object', properties: { id: { type: 'string' }, parent: { $ref: '#/components/schemas/Pet' } } } },
    responses: { Pets: { description: 'Pets', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } } },
  },
};

/** A valid Swagger 2.0 document, as YAML. */
export const SWAGGER_2_YAML = `swagger: "2.0"
info:
  title: Legacy
  version: "2024.1"
paths:
  /users:
    get:
      summary: List users
      responses:
        "200":
          description: Users
          schema:
            $ref: "#/definitions/Users"
definitions:
  Users:
    type: array
    items:
      type: string
`;

/** An OpenAPI 3.0 document with a `$ref` to nothing: invalid once references are resolved. */
export const BROKEN_REF = {
  openapi: '3.0.3',
  info: { title: 'Broken', version: '1' },
  paths: { '/x': { get: { responses: { '200': { $ref: '#/components/responses/Missing' } } } } },
};

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A local HTTP server serving specification documents (and misbehaving on purpose) for processing
 * tests. `requests` records the paths asked for.
 */
export async function startSpecServer(routes: Record<string, Handler>) {
  const requests: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const handler = routes[req.url ?? ''];
    if (!handler) {
      res.statusCode = 404;
      return res.end('not found');
    }
    hanging.add(res);
    res.on('close', () => hanging.delete(res));
    handler(req, res);
  });
  // Listening on every interface (IPv4 and IPv6), so that `localhost` reaches it whichever it resolves to.
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const json =
  (body: unknown): Handler =>
  (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };

export const yaml =
  (body: string): Handler =>
  (_req, res) => {
    res.setHeader('content-type', 'application/yaml');
    res.end(body);
  };
