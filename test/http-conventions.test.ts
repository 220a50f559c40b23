import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { seedSiteTree, SITE_TREE_QUERY } from '../scripts/site-tree.js';
import { routes } from '../rest-facade/routes/index.js';
import { loadConfig } from '../src/kernel/config.js';
import { ApiToken } from '../src/domain/users/index.js';
import { createApiToken, createUser } from '../src/domain/users/index.js';
import { newId } from '../src/kernel/ids.js';
import { newOrganizationWithRoles, newUser, rest } from './support/factories.js';
import { useTestServer, type TestServer } from './support/server.js';

/**
 * HTTP conventions of both doors and the plain routes: CORS, compression, ETag and Cache-Control,
 * 405 with Allow, the index at /, X-Request-Id.
 */

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** One request as sent (no fetch defaults such as Accept-Encoding), with the answer's bytes as they came. */
function raw(server: TestServer, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = (answer: Raw) => JSON.parse((answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body).toString('utf8'));
const listOf = (header: string | string[] | undefined) =>
  String(header ?? '')
    .split(/\s*,\s*/)
    .map((v) => v.toLowerCase());
const accessControlHeaders = (answer: Raw) => Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'));

const APP = 'https://app.example.com';

/** The Allow header of a /v1 path, from the route table: its methods, HEAD with GET, and OPTIONS. */
function allowOf(path: string): string {
  const methods = new Set<string>(routes.filter((route) => route.path === path).map((route) => route.method));
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((method) => methods.has(method)).join(', ');
}

describe('CORS with configured origins', () => {
  const server = useTestServer({ CORS_ORIGINS: `${APP}, https://admin.example.com` });

  it('answers a preflight of either door 204 with the methods, headers and max age a browser needs', async () => {
    for (const path of ['/v1/orgs', '/graphql']) {
      const preflight = await raw(server, 'OPTIONS', path, {
        origin: APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-request-id',
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(APP);
      expect(listOf(preflight.headers['access-control-allow-methods'])).toEqual(expect.arrayContaining(['get', 'post', 'put', 'patch', 'delete']));
      expect(listOf(preflight.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-request-id']));
      expect(preflight.headers['access-control-max-age']).toBe('600');
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      expect(listOf(preflight.headers.vary)).toContain('origin');
      expect(preflight.body.length).toBe(0);
    }
  });

  it('lets pages of an allowed origin read answers of both doors and their headers', async () => {
    const caller = await newUser(server);
    const restAnswer = await raw(server, 'GET', '/v1/user', { origin: 'https://admin.example.com', authorization: `Bearer ${caller.token}` });
    expect(restAnswer.status).toBe(200);
    expect(restAnswer.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    expect(listOf(restAnswer.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining(['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'location', 'etag']),
    );
    const graphqlAnswer = await raw(
      server,
      'POST',
      '/graphql',
      { origin: APP, authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' },
      JSON.stringify({ query: '{ viewer { email } }' }),
    );
    expect(graphqlAnswer.status).toBe(200);
    expect(graphqlAnswer.headers['access-control-allow-origin']).toBe(APP);
    expect(json(graphqlAnswer).data.viewer.email).toBe(caller.user.email);
    // Errors too: a page must be able to read why it was refused.
    const refused = await raw(server, 'GET', '/v1/user', { origin: APP });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(APP);
  });

  it('gives another origin no Access-Control-Allow-Origin, so that its browser keeps the answer from it', async () => {
    const preflight = await raw(server, 'OPTIONS', '/v1/orgs', { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const answer = await raw(server, 'GET', '/healthz', { origin: 'https://evil.example.com' });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS for any origin', () => {
  const server = useTestServer({ CORS_ORIGINS: '*' });

  it('answers every origin with *', async () => {
    const answer = await raw(server, 'GET', '/healthz', { origin: 'https://anywhere.example.org' });
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('CORS_ORIGINS', () => {
  it('takes exact origins or *, and refuses anything else naming the variable', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://A.example.com/, http://localhost:5173' }).corsOrigins).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
    expect(loadConfig({ CORS_ORIGINS: ' * ' }).corsOrigins).toBe('*');
    expect(loadConfig({}).corsOrigins).toEqual([]);
    for (const bad of ['app.example.com', 'https://app.example.com/path', 'ftp://files.example.com']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS: must be `\*` or comma-separated origins/);
    }
  });
});

describe('without CORS_ORIGINS', () => {
  const server = useTestServer();

  it('adds no CORS header at all, and answers OPTIONS with Allow', async () => {
    const answer = await raw(server, 'GET', '/healthz', { origin: APP });
    expect(accessControlHeaders(answer)).toEqual([]);
    const options = await raw(server, 'OPTIONS', '/v1/orgs', { origin: APP, 'access-control-request-method': 'POST' });
    expect(options.status).toBe(204);
    expect(accessControlHeaders(options)).toEqual([]);
    expect(options.headers.allow).toBe(allowOf('/v1/orgs'));
  });

  describe('compression', () => {
    it('gzips a large answer of either door for a client that accepts it, and leaves small ones and other clients alone', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const site = await seedSiteTree(server.em(), organization.id, 20, 25, 5, server.clock.now());
      const body = JSON.stringify({ query: SITE_TREE_QUERY, variables: { id: site } });
      const headers = { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' };

      const plain = await raw(server, 'POST', '/graphql', headers, body);
      const gzipped = await raw(server, 'POST', '/graphql', { ...headers, 'accept-encoding': 'gzip' }, body);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(listOf(gzipped.headers.vary)).toContain('accept-encoding');
      expect(json(gzipped)).toEqual(json(plain));
      expect(json(gzipped).data.site.siteSpaces).toBe(500);
      expect(gzipped.body.length).toBeLessThan(plain.body.length / 5);
      console.log(`site tree of 500 site spaces: ${plain.body.length} bytes of JSON, ${gzipped.body.length} gzipped`);

      const list = await raw(server, 'GET', `/v1/orgs/${organization.id}/spaces?limit=100`, {
        authorization: `Bearer ${admin.token}`,
        'accept-encoding': 'gzip, deflate, br',
      });
      expect(list.status).toBe(200);
      expect(list.headers['content-encoding']).toBeDefined();

      const small = await raw(server, 'GET', '/v1/user', { authorization: `Bearer ${admin.token}`, 'accept-encoding': 'gzip' });
      expect(small.status).toBe(200);
      expect(small.headers['content-encoding']).toBeUndefined();
    });

    it.skipIf(!!process.env.TEST_DATABASE_URL)('sends the backup (a .tar.gz already) as it is', async () => {
      const user = await createUser(server.em(), server.clock, {
        email: `admin-${newId().toLowerCase()}@example.com`,
        displayName: 'Admin',
        instanceAdmin: true,
      });
      const { secret } = await createApiToken(server.em(), server.clock, user.id, 'backup');
      const backup = await raw(server, 'GET', '/admin/backup', { authorization: `Bearer ${secret}`, 'accept-encoding': 'gzip' });
      expect(backup.status).toBe(200);
      expect(backup.headers['content-type']).toBe('application/gzip');
      expect(backup.headers['content-encoding']).toBeUndefined();
      // The bytes are the archive itself: gzip's magic number first.
      expect([...backup.body.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    });
  });

  describe('ETag and Cache-Control', () => {
    it('tags GET answers of the REST door and answers If-None-Match 304 until the resource changes', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const auth = { authorization: `Bearer ${admin.token}` };
      const first = await raw(server, 'GET', `/v1/orgs/${organization.id}`, auth);
      expect(first.status).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^".+"$/);

      const again = await raw(server, 'GET', `/v1/orgs/${organization.id}`, { ...auth, 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers['cache-control']).toBe('no-store');

      expect((await admin.rest('PATCH', `/v1/orgs/${organization.id}`, { title: 'Renamed for the ETag' })).status).toBe(200);
      const changed = await raw(server, 'GET', `/v1/orgs/${organization.id}`, { ...auth, 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(json(changed).title).toBe('Renamed for the ETag');
    });

    it('tags GraphQL GET queries too', async () => {
      const caller = await newUser(server);
      const path = `/graphql?query=${encodeURIComponent('{ viewer { email } }')}`;
      // Apollo's CSRF prevention: a GET needs a header that a simple cross-site request cannot send.
      const headers = { authorization: `Bearer ${caller.token}`, 'apollo-require-preflight': 'true' };
      const first = await raw(server, 'GET', path, headers);
      expect(first.status).toBe(200);
      expect(json(first).data.viewer.email).toBe(caller.user.email);
      const again = await raw(server, 'GET', path, { ...headers, 'if-none-match': first.headers.etag as string });
      expect(again.status).toBe(304);
      // A POST's answer is never revalidated: not hashed for a tag.
      const posted = await raw(
        server,
        'POST',
        '/graphql',
        { authorization: headers.authorization, 'content-type': 'application/json' },
        JSON.stringify({ query: '{ viewer { email } }' }),
      );
      expect(posted.status).toBe(200);
      expect(json(posted).data.viewer.email).toBe(caller.user.email);
      expect(posted.headers.etag).toBeUndefined();
    });

    it('says no-store on every answer of both doors: answers carrying a new API token, reads and errors alike', async () => {
      const caller = await newUser(server);
      const created = await raw(
        server,
        'POST',
        '/graphql',
        { authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' },
        JSON.stringify({ query: 'mutation { createApiToken(label: "ci") { id token } }' }),
      );
      expect(json(created).data.createApiToken.token).toEqual(expect.any(String));
      expect(created.headers['cache-control']).toBe('no-store');
      for (const [method, path] of [
        ['GET', '/v1/user'],
        ['GET', '/v1/no-such-thing'],
        ['GET', '/healthz'],
        ['GET', '/'],
      ] as const) {
        const answer = await raw(server, method, path, { authorization: `Bearer ${caller.token}` });
        expect(answer.headers['cache-control'], `${method} ${path}`).toBe('no-store');
      }
    });

    it('lets the playground assets be cached: they are public and the same for everyone', async () => {
      const asset = await raw(server, 'GET', '/graphql/assets/graphiql.css');
      expect(asset.status).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=86400');
    });
  });

  describe('methods', () => {
    it('answers a wrong method on a /v1 path 405 with Allow from the route table, in the error body', async () => {
      const { organization, admin } = await newOrganizationWithRoles(server);
      const answer = await admin.rest('DELETE', '/v1/orgs');
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe(allowOf('/v1/orgs'));
      expect(answer.body).toEqual({ error: { code: 405, message: 'DELETE is not allowed on /v1/orgs: use GET, POST' } });

      const one = await admin.rest('PUT', `/v1/orgs/${organization.id}`, { title: 'x' });
      expect(one.status).toBe(405);
      expect(one.headers.get('allow')).toBe(allowOf('/v1/orgs/{organizationId}'));
      expect(one.headers.get('allow')).toContain('PATCH');
      // Nothing ran: the title is as it was.
      expect((await admin.rest('GET', `/v1/orgs/${organization.id}`)).body.title).toBe(organization.title);
    });

    it('answers a wrong method on a plain path 405 with Allow, and unknown paths 404', async () => {
      const health = await rest(server, null, 'POST', '/healthz', {});
      expect(health.status).toBe(405);
      expect(health.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(health.body).toEqual({ error: { code: 405, message: expect.stringContaining('POST is not allowed on /healthz') } });
      const graphql = await rest(server, null, 'PUT', '/graphql', { query: '{ viewer { id } }' });
      expect(graphql.status).toBe(405);
      expect(graphql.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
      const unknown = await rest(server, null, 'DELETE', '/v1/nothing-here');
      expect(unknown).toMatchObject({ status: 404, body: { error: { code: 404 } } });
    });
  });

  describe('GraphQL introspection', () => {
    it('answers the same schema with or without a token; a bad token is refused as everywhere', async () => {
      const caller = await newUser(server);
      const query = '{ __schema { queryType { name } mutationType { name } types { name } } }';
      const anonymous = await rest(server, null, 'POST', '/graphql', { query });
      const authenticated = await rest(server, caller.token, 'POST', '/graphql', { query });
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.errors).toBeUndefined();
      expect(anonymous.body.data.__schema.types.length).toBeGreaterThan(50);
      expect(authenticated.body).toEqual(anonymous.body);
      // A credential that does not authenticate is the caller's mistake to hear about, whatever it asks.
      for (const authorization of ['Bearer <token>', 'Bearer dp_not-a-token', 'Basic dXNlcjpwYXNz']) {
        const refused = await rest(server, null, 'POST', '/graphql', { query }, { authorization });
        expect(refused.status, authorization).toBe(401);
        expect(refused.body.errors[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
      }
    });
  });

  describe('GraphQL operation names', () => {
    it('answers an operationName that names no operation of the document 400, not 500', async () => {
      const caller = await newUser(server);
      for (const [query, operationName] of [
        ['{ viewer { email } }', 'Overview'],
        ['query A { viewer { email } } query B { viewer { id } }', 'C'],
      ]) {
        const answer = await rest(server, caller.token, 'POST', '/graphql', { query, operationName });
        expect(answer.status).toBe(400);
        expect(answer.body.errors[0]).toMatchObject({
          message: `Unknown operation named "${operationName}"`,
          extensions: { code: 'BAD_REQUEST', status: 400 },
        });
      }
      const several = await rest(server, caller.token, 'POST', '/graphql', { query: 'query A { viewer { email } } query B { viewer { id } }' });
      expect(several.status).toBe(400);
      expect(several.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    });
  });

  describe('GraphQL over GET', () => {
    it("runs README's curl example as curl sends it: the token and nothing else", async () => {
      const caller = await newUser(server);
      const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
      const example = /curl -H "Authorization: Bearer \$TOKEN" "http:\/\/localhost:3000(\/graphql\?query=[^"]+)"/.exec(readme);
      expect(example, 'the GET example of README.md').not.toBeNull();
      const answer = await raw(server, 'GET', example![1], { authorization: `Bearer ${caller.token}`, accept: '*/*', 'user-agent': 'curl/8.14.1' });
      expect(answer.status).toBe(200);
      expect(json(answer)).toEqual({ data: { viewer: { id: caller.user.id, email: caller.user.email } } });
      const badToken = await raw(server, 'GET', example![1], { authorization: 'Bearer dp_not-a-token' });
      expect(badToken.status).toBe(401);
    });

    it('refuses a GET with neither a token nor a preflighted header as a possible cross-site request, and any mutation over GET', async () => {
      const path = `/graphql?query=${encodeURIComponent('{ __typename }')}`;
      const anonymous = await raw(server, 'GET', path);
      expect(anonymous.status).toBe(400);
      expect(json(anonymous).errors[0]).toMatchObject({
        message: expect.stringContaining('Cross-Site Request Forgery'),
        extensions: { code: 'BAD_REQUEST', status: 400 },
      });
      const preflighted = await raw(server, 'GET', path, { 'apollo-require-preflight': 'true' });
      expect({ status: preflighted.status, body: json(preflighted) }).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });

      const caller = await newUser(server);
      const mutation = `/graphql?query=${encodeURIComponent('mutation { createApiToken(label: "over GET") { id } }')}`;
      const refused = await raw(server, 'GET', mutation, { authorization: `Bearer ${caller.token}` });
      expect(refused.status).toBe(405);
      expect(refused.headers.allow).toBe('POST');
      expect(json(refused).errors[0]).toMatchObject({ message: expect.stringContaining('not mutation'), extensions: { status: 405 } });
      expect(await server.em().count(ApiToken, { user: caller.user.id })).toBe(1);
    });
  });

  describe('GraphQL without a token', () => {
    it('answers 401 for any field that needs one, as a bad token does, before anything runs', async () => {
      const send = (query: string, headers: Record<string, string> = {}) =>
        raw(server, 'POST', '/graphql', { 'content-type': 'application/json', ...headers }, JSON.stringify({ query }));
      const badToken = await send('{ viewer { id } }', { authorization: 'Bearer dp_not-a-token' });
      expect(badToken.status).toBe(401);
      for (const query of [
        '{ viewer { id } }',
        '{ __typename viewer { id } }',
        '{ ...Me } fragment Me on Query { ... on Query { viewer { id } } }',
        'mutation { createApiToken(label: "anonymous") { id } }',
      ]) {
        const anonymous = await send(query);
        expect(anonymous.status, query).toBe(401);
        expect(json(anonymous), query).toEqual({
          errors: [{ message: 'Authentication required: send "Authorization: Bearer <token>"', extensions: { code: 'UNAUTHENTICATED', status: 401 } }],
        });
        expect(anonymous.headers['www-authenticate'], query).toBe(badToken.headers['www-authenticate']);
      }
    });

    it('answers what is public: introspection and __typename, also beside a field the document skips', async () => {
      const anonymous = await rest(server, null, 'POST', '/graphql', {
        query: 'query($me: Boolean!) { __typename __type(name: "Space") { name } viewer @include(if: $me) { id } }',
        variables: { me: false },
      });
      expect({ status: anonymous.status, body: anonymous.body }).toEqual({ status: 200, body: { data: { __typename: 'Query', __type: { name: 'Space' } } } });
      const byDefault = await rest(server, null, 'POST', '/graphql', { query: 'query($me: Boolean = false) { __typename viewer @include(if: $me) { id } }' });
      expect({ status: byDefault.status, body: byDefault.body }).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
      // Variables that do not fit are bad input whoever sends them.
      const badVariable = await rest(server, null, 'POST', '/graphql', {
        query: 'query($me: Boolean!) { viewer @include(if: $me) { id } }',
        variables: { me: 'yes' },
      });
      expect(badVariable.status).toBe(400);
    });
  });

  describe('GraphQL request bodies', () => {
    it('answers a POST that carries no request 400, saying what to send, in the door error shape', async () => {
      const caller = await newUser(server);
      for (const body of [undefined, '{}']) {
        const answer = await rest(server, caller.token, 'POST', '/graphql', body);
        expect({ status: answer.status, body: answer.body }, String(body)).toEqual({
          status: 400,
          body: {
            errors: [
              {
                message: 'body: a JSON object with the GraphQL document in "query" is required, e.g. {"query": "{ viewer { id } }"}',
                extensions: { code: 'BAD_REQUEST', status: 400 },
              },
            ],
          },
        });
      }
      const noQuery = await rest(server, caller.token, 'POST', '/graphql', { variables: {} });
      expect(noQuery.status).toBe(400);
      expect(noQuery.body.errors[0].extensions).toEqual({ code: 'BAD_REQUEST', status: 400 });
    });
  });

  describe('the index and request ids', () => {
    it('answers / with where the doors are', async () => {
      const index = await rest(server, null, 'GET', '/');
      expect(index.status).toBe(200);
      expect(index.body).toEqual({
        graphql: { endpoint: 'http://docs.test/graphql', playground: 'http://docs.test/graphql' },
        rest: { base: 'http://docs.test/v1', openapi: 'http://docs.test/v1/openapi.json', reference: 'http://docs.test/docs' },
        health: 'http://docs.test/healthz',
        authentication: 'Authorization: Bearer <API token>',
      });
    });

    it('echoes X-Request-Id, or gives one, on every kind of answer', async () => {
      for (const [method, path] of [
        ['GET', '/v1/user'],
        ['POST', '/healthz'],
        ['GET', '/nowhere'],
        ['GET', '/'],
      ] as const) {
        const sent = await raw(server, method, path, { 'x-request-id': `trace-${method}-${path}` });
        expect(sent.headers['x-request-id']).toBe(`trace-${method}-${path}`);
        const given = await raw(server, method, path);
        expect(given.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
    });
  });
});
