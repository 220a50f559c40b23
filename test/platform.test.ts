import { readFileSync } from 'node:fs';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS_DOCUMENT, permissionsDocument } from '../scripts/permission-table.js';
import { printedSchema, SCHEMA_DOCUMENT } from '../scripts/print-schema.js';
import { generate } from '@graphql-codegen/cli';
import { config as codegenConfig, RESOLVER_TYPES } from '../scripts/codegen.js';
import { buildSchema, guardOf, registryOf, withGuards } from '../src/graphql/schema.js';
import { areas } from '../src/areas.js';
import sql from 'sql-template-tag';
import { readRows } from '../src/db/statements.js';
import { callerFor, gql, newOrganization, newUser, rest } from './support/factories.js';
import { useTestServer } from './support/server.js';

const server = useTestServer({ BODY_LIMIT: '16kb', GRAPHQL_MAX_DEPTH: '8' });

const errorBody = (code: number) => ({ error: { code, message: expect.any(String) } });

describe('health and routing', () => {
  it('answers /healthz with 200 while the database answers', async () => {
    const res = await rest(server, null, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers an unknown path with 404 in the error shape, even without a token', async () => {
    const res = await rest(server, null, 'GET', '/v1/no-such-thing/here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody(404));
  });

  it('answers a routed operation without a token with 401 in the error shape', async () => {
    for (const [method, path] of [
      ['GET', '/v1/orgs'],
      ['PATCH', '/v1/spaces/abc'],
      ['DELETE', '/v1/collections/abc'],
    ]) {
      const res = await rest(server, null, method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual(errorBody(401));
    }
  });

  it('echoes a request id', async () => {
    const res = await rest(server, null, 'GET', '/healthz', undefined, { 'x-request-id': 'trace-123' });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    const generated = await rest(server, null, 'GET', '/healthz');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('authentication', () => {
  it('rejects an unknown token and a malformed header with 401 on both doors', async () => {
    for (const authorization of ['Bearer nope', 'Basic abc', 'Bearer']) {
      const restRes = await rest(server, null, 'GET', '/v1/user', undefined, { authorization });
      expect(restRes.status, authorization).toBe(401);
      expect(restRes.body).toEqual(errorBody(401));
      const gqlRes = await rest(server, null, 'POST', '/graphql', { query: '{ viewer { id } }' }, { authorization });
      expect(gqlRes.status, authorization).toBe(401);
      expect(gqlRes.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
  });

  it('answers GraphQL fields without a token with 401 UNAUTHENTICATED', async () => {
    const res = await gql(server, null, '{ viewer { id } }');
    expect(res.status).toBe(401);
    expect(res.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('returns the viewer on both doors', async () => {
    const alice = await newUser(server, { displayName: 'Alice' });
    const viaRest = await alice.rest('GET', '/v1/user');
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toEqual({
      object: 'user',
      id: alice.user.id,
      displayName: 'Alice',
      email: alice.user.email,
      urls: { location: `http://docs.test/v1/users/${alice.user.id}` },
    });
    const viaGraphql = await alice.gql('{ viewer { id email } }');
    expect(viaGraphql.data.viewer).toEqual({ id: alice.user.id, email: alice.user.email });
  });

  it('issues tokens through GraphQL; a revoked token stops working at once', async () => {
    const alice = await newUser(server);
    const created = await alice.gql('mutation { createApiToken(label: "ci") { id label token } }');
    const second = callerFor(server, alice.user, created.data.createApiToken.token);
    expect((await second.rest('GET', '/v1/user')).status).toBe(200);
    const listed = await alice.gql('{ apiTokens { id label } }');
    expect((listed.data as { apiTokens: { label: string }[] }).apiTokens.map((t) => t.label).sort()).toEqual(['ci', 'test']);
    expect(JSON.stringify(listed)).not.toContain(created.data.createApiToken.token);

    const revoked = await alice.gql('mutation($id: ID!) { revokeApiToken(id: $id) }', { id: created.data.createApiToken.id });
    expect(revoked.data.revokeApiToken).toBe(true);
    expect((await second.rest('GET', '/v1/user')).status).toBe(401);
    expect((await alice.rest('GET', '/v1/user')).status).toBe(200);
  });

  it('stores only a hash of each token', async () => {
    const alice = await newUser(server);
    const rows = await server.em().getConnection().execute('select secret_hash from api_token where user_id = ?', [alice.user.id]);
    expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].secret_hash).not.toContain(alice.token);
  });

  it("cannot revoke somebody else's token", async () => {
    const alice = await newUser(server);
    const bob = await newUser(server);
    const created = await bob.gql('mutation { createApiToken(label: "x") { id } }');
    const res = await alice.gql('mutation($id: ID!) { revokeApiToken(id: $id) }', { id: created.data.createApiToken.id });
    expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('errors and limits', () => {
  it('answers malformed JSON with 400 and no internals', async () => {
    const alice = await newUser(server);
    const organization = await newOrganization(server, alice);
    const res = await alice.rest('PATCH', `/v1/orgs/${organization.id}`, '{"title": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: 'Malformed JSON body' } });
  });

  it('answers a body over the size limit with 413', async () => {
    const alice = await newUser(server);
    const organization = await newOrganization(server, alice);
    const res = await alice.rest('PATCH', `/v1/orgs/${organization.id}`, { title: 'x'.repeat(20_000) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(errorBody(413));
    const viaGraphql = await rest(server, alice.token, 'POST', '/graphql', { query: `{ viewer { id } } # ${'x'.repeat(20_000)}` });
    expect(viaGraphql.status).toBe(413);
  });

  it('names the field of a wrongly typed or unknown body field', async () => {
    const alice = await newUser(server);
    const organization = await newOrganization(server, alice);
    const wrongType = await alice.rest('PATCH', `/v1/orgs/${organization.id}`, { title: 5 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toMatch(/^title: /);
    const unknown = await alice.rest('PATCH', `/v1/orgs/${organization.id}`, { colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('colour: unknown field');
    const notObject = await alice.rest('PATCH', `/v1/orgs/${organization.id}`, [1, 2]);
    expect(notObject.status).toBe(400);
  });

  it('names the query parameter of a wrongly typed value', async () => {
    const alice = await newUser(server);
    const res = await alice.rest('GET', '/v1/orgs?limit=ten');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('limit: must be an integer');
    for (const limit of [0, 1001]) {
      const out = await alice.rest('GET', `/v1/orgs?limit=${limit}`);
      expect(out.status).toBe(400);
      expect(out.body.error.message).toBe('limit: must be an integer from 1 to 1000');
    }
    const page = await alice.rest('GET', '/v1/orgs?page=garbage');
    expect(page.status).toBe(400);
    expect(page.body.error.message).toMatch(/^page: /);
  });

  it('refuses GraphQL queries deeper than the limit', async () => {
    const alice = await newUser(server);
    const deep =
      '{ organizations { items { spaces { items { owningOrganization { spaces { items { owningOrganization { spaces { items { id } } } } } } } } } } }';
    const res = await rest(server, alice.token, 'POST', '/graphql', { query: deep });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/depth limit of 8 exceeded/);
  });

  it('answers bad GraphQL input with a BAD_REQUEST code and no stack trace', async () => {
    const alice = await newUser(server);
    const res = await rest(server, alice.token, 'POST', '/graphql', { query: '{ organization(id: 5) { nope } }' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toMatch(/stacktrace|at .*\.ts:\d+/);
  });
});

describe('playground', () => {
  it('serves GraphiQL and its assets from this server', async () => {
    const page = await rest(server, null, 'GET', '/graphql', undefined, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const assets = [...String(page.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBe(5);
    for (const asset of assets) {
      expect(asset.startsWith('/graphql/assets/'), asset).toBe(true);
      const res = await fetch(server.url + asset);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });

  it('still executes GET queries that ask for JSON', async () => {
    const alice = await newUser(server);
    const res = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ viewer { id } }')}`, {
      headers: { authorization: `Bearer ${alice.token}`, accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.viewer.id).toBe(alice.user.id);
  });
});

describe('permission declarations', () => {
  it('guards every root field', () => {
    const schema = buildSchema(areas);
    for (const root of [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!]) {
      for (const field of Object.values(root.getFields())) {
        expect(guardOf(schema, field as never), `${root.name}.${field.name}`).toBeDefined();
      }
    }
  });

  it('refuses to start on a check that is not declared, does not judge the target, or reads an argument the field lacks', () => {
    const real = buildSchema(areas);
    const declarations = [print(real.getDirective('requires')!.astNode!), print(real.getType('GuardTarget')!.astNode!)].join('\n');
    const guarded = (field: string) => () =>
      withGuards(
        makeExecutableSchema({
          typeDefs: `${declarations}\ninput MoveInput { position: Int }\ntype Mutation { ${field} }\ntype Query { ok: Boolean @public }\ndirective @public on FIELD_DEFINITION`,
        }),
        registryOf(real),
      );

    expect(guarded('move(id: ID!, input: MoveInput!): Boolean @requires(role: "admin", on: SPACE, arg: "id", check: "adminOfBoth")')).toThrow(
      'Field Mutation.move: @requires names the check "adminOfBoth", which reads a missing argument "input.organization"',
    );
    expect(guarded('move(id: ID!): Boolean @requires(role: "admin", on: SPACE, arg: "id", check: "mayDoAnything")')).toThrow(
      'Field Mutation.move: @requires names the check "mayDoAnything", which neither kernel/checks.ts nor an area declares',
    );
    expect(guarded('move(id: ID!): Boolean @requires(role: "admin", on: TEAM, arg: "id", check: "liveSpace")')).toThrow(
      'Field Mutation.move: @requires names the check "liveSpace", which does not judge a TEAM',
    );
    expect(guarded('move(id: ID!): Boolean @requires(role: "read", on: SPACE, arg: "id", or: "activeShareKey")')).toThrow(
      'Field Mutation.move: @requires names the alternative "activeShareKey", which reads a missing argument "shareKey"',
    );
    expect(
      guarded('move(id: ID!, shareKey: String): Boolean @requires(role: "read", on: SPACE, arg: "id", or: "activeShareKey", check: "liveSpace")'),
    ).not.toThrow();
  });

  it('keeps docs/permissions.md in step with the schema', () => {
    expect(readFileSync(PERMISSIONS_DOCUMENT, 'utf8'), 'run: npm run permissions:table -- --write').toBe(permissionsDocument());
  });

  it("keeps the top-level schema.graphql in step with the areas' schemas", () => {
    expect(readFileSync(SCHEMA_DOCUMENT, 'utf8'), 'run: npm run schema:print -- --write').toBe(printedSchema());
  });

  it('keeps the generated resolver types in step with schema.graphql', async () => {
    const [output] = (await generate({ ...codegenConfig, silent: true }, false)) as { filename: string; content: string }[];
    expect(readFileSync(RESOLVER_TYPES, 'utf8'), 'run: npm run codegen').toBe(output.content);
  });
});

describe('database sessions', () => {
  it.runIf(!!process.env.TEST_DATABASE_URL)('run without JIT compilation, on every connection of the pool, for the ORM and the read path', async () => {
    const em = server.em();
    // Several at once, so that more than one connection of the pool answers.
    const settings = await Promise.all([
      ...Array.from({ length: 3 }, () => em.fork().execute<{ jit: string }[]>(`select current_setting('jit') as jit, pg_sleep(0.05)`)),
      ...Array.from({ length: 3 }, () => readRows<{ jit: string }>(em.fork(), sql`select current_setting('jit') as jit, pg_sleep(0.05)`)),
    ]);
    expect(settings.map(([row]) => row.jit)).toEqual(Array(6).fill('off'));
  });
});
