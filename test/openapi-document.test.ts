import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../src/kernel/config.js';
import { MAX_PAGE_SIZE } from '../src/kernel/pagination.js';
import { MAX_LIMIT as AGGREGATE_MAX_LIMIT } from '../src/domain/insights/index.js';
import { openApiDocument } from '../rest-facade/openapi/document.js';
import { routes } from '../rest-facade/routes/index.js';
import { contractOperations } from './support/contract-operations.js';
import { newOrganization, newUser } from './support/factories.js';
import { useTestServer } from './support/server.js';

/**
 * The REST door's OpenAPI document: served without a token, valid OpenAPI 3.1, the same operations as
 * the public reference for the contract's 129, and schemas that real answers meet.
 */

const server = useTestServer();
const require = createRequire(import.meta.url);
const reference = require('@gitbook/api/spec/openapi.json') as { paths: Record<string, Record<string, { operationId?: string }>> };
const packageVersion = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, Record<string, any>>; [key: string]: any };
async function served(): Promise<Doc> {
  const res = await fetch(`${server.url}/v1/openapi.json`);
  expect(res.status).toBe(200);
  return (await res.json()) as Doc;
}

const operationAt = (doc: Doc, method: string, path: string) => doc.paths[path.replace(/^\/v1/, '')]?.[method.toLowerCase()];
const successStatuses = (operation: { responses: Record<string, unknown> }) =>
  Object.keys(operation.responses)
    .filter((status) => /^2\d\d$/.test(status))
    .map(Number);
/** A path with its parameters unnamed: the contract renames one (translationSettingsId) where the reference says translationId. */
const unnamed = (path: string) => path.replace(/\{\w+\}/g, '{}');

describe('GET /v1/openapi.json and /v1/openapi.yaml', () => {
  it('serve one document without a token, JSON with an ETag that answers 304, YAML equal to it', async () => {
    const res = await fetch(`${server.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    const json = await res.json();
    // As fetch sends it (with the Cache-Control: no-cache it adds to a conditional request): 304.
    const again = await fetch(`${server.url}/v1/openapi.json`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);

    const yaml = await fetch(`${server.url}/v1/openapi.yaml`);
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(parseYaml(await yaml.text())).toEqual(json);
  });

  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    const doc = await served();
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('names the package version, the server at PUBLIC_URL and the bearer scheme', async () => {
    const doc = await served();
    expect(doc.info.version).toBe(packageVersion);
    expect(doc.servers.map((entry: { url: string }) => entry.url)).toEqual(['http://docs.test/v1', '/v1']);
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });
});

describe('operations', () => {
  it('has one operation per routed route, under its method and path', async () => {
    const doc = await served();
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(routes.length);
    for (const route of routes) expect(operationAt(doc, route.method, route.path)?.operationId, route.operationId).toBe(route.operationId);
  });

  it('matches the reference for the 129 contract operations: ids, methods, paths and success statuses', async () => {
    const doc = await served();
    const referenceByUnnamed = new Map(Object.entries(reference.paths).map(([path, item]) => [unnamed(path), item]));
    const rows = contractOperations();
    expect(rows).toHaveLength(129);
    for (const row of rows) {
      const ours = operationAt(doc, row.method, row.path);
      const theirs = referenceByUnnamed.get(unnamed(row.path.replace(/^\/v1/, '')))?.[row.method.toLowerCase()] as {
        operationId: string;
        responses: Record<string, unknown>;
      };
      expect(ours?.operationId, `${row.method} ${row.path}`).toBe(row.operationId);
      expect(theirs?.operationId, `${row.method} ${row.path} in the reference`).toBe(row.operationId);
      expect(successStatuses(ours).sort(), row.operationId).toEqual(row.success);
      // The reference lists 205 beside 204 for deletes; the contract answers 204.
      for (const status of row.success) expect(successStatuses(theirs), row.operationId).toContain(status);
    }
  });

  it('answers 204 without a body, and 201 with Location where the entity has a URL', async () => {
    const doc = await served();
    const deleteSpace = operationAt(doc, 'DELETE', '/v1/spaces/{spaceId}');
    expect(deleteSpace.responses['204']).not.toHaveProperty('content');
    const createSpace = operationAt(doc, 'POST', '/v1/orgs/{organizationId}/spaces');
    expect(createSpace.responses['201'].headers.Location.schema).toEqual({ type: 'string', format: 'uri' });
    // An upsert answers 200 when it updates and 201 when it creates.
    const upsert = operationAt(doc, 'PUT', '/v1/orgs/{organizationId}/openapi/{specSlug}');
    expect(
      Object.keys(upsert.responses)
        .filter((status) => status.startsWith('2'))
        .sort(),
    ).toEqual(['200', '201']);
  });

  it('declares the error body for failures, with Retry-After on 429', async () => {
    const doc = await served();
    const getSpace = operationAt(doc, 'GET', '/v1/spaces/{spaceId}');
    for (const status of ['400', '401', '403', '404', '429', '500']) expect(getSpace.responses[status], status).toHaveProperty('$ref');
    const tooMany = doc.components.responses.TooManyRequests;
    expect(tooMany.headers['Retry-After'].schema.type).toBe('integer');
    expect(tooMany.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
  });

  it('declares ETag and If-None-Match/304 on every GET, If-Match/412 on the conditional writes, Idempotency-Key/422/409 on POSTs', async () => {
    type Reference = { $ref?: string };
    type Parameter = Reference & { name?: string; in?: string };
    type Operation = { parameters?: Parameter[]; responses: Record<string, Reference & { headers?: Record<string, unknown> }> };
    type Components = {
      headers: Record<string, { schema: unknown }>;
      parameters: Record<string, Parameter>;
      responses: Record<string, { content?: unknown; headers: Record<string, unknown> }>;
    };
    const doc = await served();
    const components = doc.components as unknown as Components;
    expect(components.headers.ETag.schema).toEqual({ type: 'string' });
    expect(components.responses.NotModified).not.toHaveProperty('content');
    expect(components.responses.NotModified.headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
    // Parameters inline, or referenced from components.parameters.
    const headerNames = (operation: Operation) =>
      (operation.parameters ?? [])
        .map((parameter) => (parameter.$ref ? components.parameters[parameter.$ref.split('/').pop()!] : parameter))
        .filter((parameter) => parameter.in === 'header')
        .map((parameter) => parameter.name);
    for (const route of routes) {
      const operation = operationAt(doc, route.method, route.path) as Operation;
      const conditional = /\$ifMatch\b/.test(route.document);
      if (route.method === 'GET') {
        expect(operation.responses['200'].headers?.ETag, route.operationId).toEqual({ $ref: '#/components/headers/ETag' });
        expect(operation.responses['304'], route.operationId).toEqual({ $ref: '#/components/responses/NotModified' });
        expect(headerNames(operation), route.operationId).toEqual(['If-None-Match']);
      } else if (route.method === 'POST') {
        expect(headerNames(operation), route.operationId).toEqual(['Idempotency-Key']);
        for (const status of ['409', '422']) expect(operation.responses[status], `${route.operationId} ${status}`).toHaveProperty('$ref');
      } else {
        expect(headerNames(operation), route.operationId).toEqual(conditional ? ['If-Match'] : []);
        expect('412' in operation.responses, route.operationId).toBe(conditional);
      }
    }
  });
});

describe('shapes', () => {
  it('a space lists its selected fields: non-null ones required, @keepNull ones required and nullable, others optional', async () => {
    const doc = await served();
    const ref = operationAt(doc, 'GET', '/v1/spaces/{spaceId}').responses['200'].content['application/json'].schema.$ref as string;
    const space = doc.components.schemas[ref.split('/').pop()!];
    expect(Object.keys(space.properties)).toEqual(expect.arrayContaining(['id', 'title', 'visibility', 'urls', 'permissions', 'defaultLevel', 'deletedAt']));
    expect(space.properties).not.toHaveProperty('owningOrganization'); // a relation the REST document does not select
    expect(space.required).toEqual(expect.arrayContaining(['id', 'title', 'defaultLevel']));
    expect(space.required).not.toContain('deletedAt');
    expect(space.properties.createdAt).toEqual(expect.objectContaining({ type: 'string', format: 'date-time' }));
    expect(space.properties.defaultLevel).toEqual({ anyOf: [{ $ref: '#/components/schemas/DefaultLevel' }, { type: 'null' }] });
  });

  it('limit has the bounds of pageSize, and path parameters are required strings', async () => {
    const doc = await served();
    const parameters = operationAt(doc, 'GET', '/v1/orgs/{organizationId}/spaces').parameters as {
      name: string;
      in: string;
      required?: boolean;
      schema: any;
    }[];
    expect(parameters.find((p) => p.name === 'limit')).toEqual(
      expect.objectContaining({ in: 'query', schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE }) }),
    );
    expect(parameters.find((p) => p.name === 'organizationId')).toEqual({ name: 'organizationId', in: 'path', required: true, schema: { type: 'string' } });
    // Not a paged list: the aggregate's own bound (describeArgument).
    const aggregate = operationAt(doc, 'POST', '/v1/orgs/{organizationId}/sites/{siteId}/insights/events/aggregate').requestBody.content['application/json']
      .schema;
    expect(aggregate.properties.limit).toEqual(expect.objectContaining({ type: 'integer', minimum: 1, maximum: AGGREGATE_MAX_LIMIT }));
    expect(aggregate.required).toEqual(['range']);
  });

  it("createSpace's body is CreateSpaceInput, optional, with the domain's bounds; per-field bodies list their fields", async () => {
    const doc = await served();
    const body = operationAt(doc, 'POST', '/v1/orgs/{organizationId}/spaces').requestBody;
    expect(body.required).toBe(false);
    expect(body.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateSpaceInput' });
    const input = doc.components.schemas.CreateSpaceInput;
    expect(input.properties.title).toEqual({ type: 'string', maxLength: 50 });
    expect(input.properties.visibility.enum).toContain('private');
    expect(input.additionalProperties).toBe(false);

    const perField = routes.find(
      (route) => route.method !== 'GET' && route.method !== 'DELETE' && !route.body && /\$\w+: \w+!?[,)]/.test(route.document.replace(/\$\w+Id: ID!/g, '')),
    );
    expect(perField, 'a route with per-field body').toBeDefined();
    const fields = operationAt(doc, perField!.method, perField!.path).requestBody?.content['application/json'].schema;
    expect(fields).toEqual(expect.objectContaining({ type: 'object', additionalProperties: false }));
    expect(Object.keys(fields.properties).length).toBeGreaterThan(0);
  });

  it('the insights ingestion body is the events batch the domain accepts, at most INSIGHTS_MAX_BATCH events', async () => {
    const doc = await served();
    const body = operationAt(doc, 'POST', '/v1/orgs/{organizationId}/sites/{siteId}/insights/events').requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['events']);
    expect(body.properties.events.maxItems).toBe(server.deps.config.insightsMaxBatch);
    const kinds = (body.properties.events.items.oneOf as { properties: { type: { const: string } } }[]).map((kind) => kind.properties.type.const);
    expect(kinds).toContain('page_view');
  });

  it('without PUBLIC_URL names only the relative server /v1, not the local default http://localhost:PORT', () => {
    const schema = makeExecutableSchema({ typeDefs: 'directive @public on FIELD_DEFINITION\ntype Query { ping: String! @public }' });
    const ping = { operationId: 'ping', method: 'GET', path: '/v1/ping', status: 200, document: 'query { ping }' } as const;
    const doc = openApiDocument(schema, loadConfig({ PORT: '3000' }), [ping]) as Doc;
    expect(doc.servers).toEqual([{ url: '/v1', description: expect.any(String) }]);
  });

  it('an operation whose root field is @public takes a token but does not need one', () => {
    const schema = makeExecutableSchema({
      typeDefs:
        'directive @public on FIELD_DEFINITION\ndirective @authenticated on FIELD_DEFINITION\ntype Query { ping: String! @public, me: String! @authenticated }',
    });
    const doc = openApiDocument(schema, loadConfig({ PUBLIC_URL: 'http://docs.test' }), [
      { operationId: 'ping', method: 'GET', path: '/v1/ping', status: 200, document: 'query { ping }' },
      { operationId: 'me', method: 'GET', path: '/v1/me', status: 200, document: 'query { me }' },
    ]) as Doc;
    expect(doc.paths['/ping'].get.security).toEqual([{}, { bearerAuth: [] }]);
    expect(doc.paths['/ping'].get.responses).not.toHaveProperty('403');
    expect(doc.paths['/me'].get).not.toHaveProperty('security');
  });
});

describe('real answers meet the generated response schemas (ajv, JSON Schema 2020-12)', () => {
  const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

  async function validatorFor(doc: Doc) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
    ajv.addSchema({ $id: 'generated', components: doc.components });
    return (method: string, path: string, status: number, body: unknown) => {
      const schema = operationAt(doc, method, path).responses[String(status)].content['application/json'].schema;
      const check = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"generated#/components/')));
      return check(body) ? [] : check.errors;
    };
  }

  it('every success response schema and request body compiles', async () => {
    const doc = await served();
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addFormat('int32', { type: 'number', validate: () => true });
    ajv.addSchema({ $id: 'generated', components: doc.components });
    const local = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"generated#/components/'));
    let compiled = 0;
    for (const item of Object.values(doc.paths)) {
      for (const operation of Object.values(item)) {
        const schemas = [
          operation.requestBody?.content['application/json'].schema,
          ...Object.values(operation.responses as Record<string, any>).map((r) => r.content?.['application/json']?.schema),
        ];
        for (const schema of schemas.filter(Boolean)) {
          ajv.compile(local(schema));
          compiled++;
        }
      }
    }
    expect(compiled).toBeGreaterThan(routes.length);
  });

  it('getAuthenticatedUser, createSpace, getSpaceById, listSpacesInOrganizationById, listOrganizationsForAuthenticatedUser', async () => {
    const doc = await served();
    const check = await validatorFor(doc);
    const caller = await newUser(server);
    const organization = await newOrganization(server, caller);

    const user = await caller.rest('GET', '/v1/user');
    expect(check('GET', '/v1/user', 200, user.body)).toEqual([]);
    const created = await caller.rest('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Checked' });
    expect(created.status).toBe(201);
    expect(check('POST', '/v1/orgs/{organizationId}/spaces', 201, created.body)).toEqual([]);
    const space = await caller.rest('GET', `/v1/spaces/${created.body.id}`);
    expect(check('GET', '/v1/spaces/{spaceId}', 200, space.body)).toEqual([]);
    const spaces = await caller.rest('GET', `/v1/orgs/${organization.id}/spaces?limit=1`);
    expect(spaces.body.items).toHaveLength(1);
    expect(check('GET', '/v1/orgs/{organizationId}/spaces', 200, spaces.body)).toEqual([]);
    const organizations = await caller.rest('GET', '/v1/orgs');
    expect(check('GET', '/v1/orgs', 200, organizations.body)).toEqual([]);
    // And a body the schema must refuse: a space without its id.
    const { id: _id, ...withoutId } = space.body;
    expect(check('GET', '/v1/spaces/{spaceId}', 200, withoutId)).not.toEqual([]);
  });
});
