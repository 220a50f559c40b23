/**
 * Stored OpenAPI specifications (contract §2.12, §4.11, §8) through both doors on the real database:
 * shapes, limits, permissions, and processing as a durable job (fetching from a local HTTP server with
 * the private-address rules, timeouts and size bounds; parsing and validating JSON and YAML; a restart
 * in the middle of processing).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/kernel/clock.js';
import { OpenAPISpec } from '../src/domain/openapi/index.js';
import { Job } from '../src/jobs/entities.js';
import { freshDatabase } from './support/database.js';
import { newOrganization, newOrganizationWithRoles, newUser, rest, type Caller } from './support/factories.js';
import { expectAuthRequired, expectContract, expectError, expectGqlError } from './support/expectations.js';
import { BROKEN_REF, json, OPENAPI_3, startSpecServer, SWAGGER_2_YAML, yaml } from './support/spec-server.js';
import { startTestServer, useTestServer } from './support/server.js';

const SECOND = 1000;
/** The job lease (JOB_LEASE_MS by default): a claimed job whose run stopped renewing it is taken again after it. */
const LEASE_MS = 30 * SECOND;
const FETCH_ENV = { FETCH_ALLOW_PRIVATE: 'localhost', FETCH_TIMEOUT_MS: '1000', FETCH_MAX_BYTES: '4096' };

const server = useTestServer(FETCH_ENV);
let specs: Awaited<ReturnType<typeof startSpecServer>>;
/** URL of the local spec server through the allow-listed host name. */
let local: (path: string) => string;

beforeAll(async () => {
  specs = await startSpecServer({
    '/v3.json': json(OPENAPI_3),
    '/v2.yaml': yaml(SWAGGER_2_YAML),
    '/broken-ref.json': json(BROKEN_REF),
    '/incomplete.json': json({ openapi: '3.0.3', paths: {} }),
    '/not-a-spec': (_req, res) => res.end('{ this is neither JSON nor YAML: ['),
    '/hang': () => undefined,
    '/large.json': json({ ...OPENAPI_3, info: { ...OPENAPI_3.info, description: 'x'.repeat(8000) } }),
    '/redirect-to-private': (_req, res) => {
      res.statusCode = 302;
      res.setHeader('location', `http://127.0.0.1:${specs.port}/v3.json`);
      res.end();
    },
    '/redirect-to-v3': (_req, res) => {
      res.statusCode = 302;
      res.setHeader('location', '/v3.json');
      res.end();
    },
  });
  local = (path) => `http://localhost:${specs.port}${path}`;
});
afterAll(() => specs?.stop());
beforeEach(() => server.clock.advance(SECOND));

const base = (organizationId: string) => `/v1/orgs/${organizationId}/openapi`;

async function createSpec(caller: Caller, organizationId: string, slug: string, source: Record<string, string>) {
  const res = await caller.rest('POST', base(organizationId), { slug, source });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Runs due jobs until none is left. */
async function runJobs() {
  for (let i = 0; i < 20 && (await server.runDueJobs()) > 0; i++);
}

async function processed(caller: Caller, organizationId: string, slug: string) {
  await runJobs();
  const res = await caller.rest('GET', `${base(organizationId)}/${slug}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** `info.version` of the spec's newest version (the last document processed successfully), or null without one. */
async function newestVersion(caller: Caller, organizationId: string, slug: string): Promise<string | null> {
  const res = await caller.gql<{ openAPISpec: { latestVersion: { version: string } | null } }>(
    `query($o: ID!, $s: String!) { openAPISpec(organizationId: $o, specSlug: $s) { latestVersion { version } } }`,
    { o: organizationId, s: slug },
  );
  return res.data.openAPISpec.latestVersion?.version ?? null;
}

/** Any version id (a spec's `lastVersion` names its newest version). */
const aVersionId: unknown = expect.stringMatching(/^[0-9A-Za-z]{20}$/);

const OPERATIONS = /* GraphQL */ `
  query($organizationId: ID!, $slug: String!) {
    openAPISpec(organizationId: $organizationId, specSlug: $slug) {
      slug processingState lastVersion latestVersion { id version } title format
      operations { path method operationId summary description tags deprecated }
    }
  }
`;

describe('authentication and permissions', () => {
  it('answers 401 without a token or with a bad one', async () => {
    const { organization } = await newOrganizationWithRoles(server);
    const calls: [string, string, unknown?][] = [
      ['GET', base(organization.id)],
      ['POST', base(organization.id), { slug: 'a', source: { text: 'x' } }],
      ['GET', `${base(organization.id)}/a`],
      ['PUT', `${base(organization.id)}/a`, { source: { text: 'x' } }],
      ['DELETE', `${base(organization.id)}/a`],
    ];
    await expectAuthRequired(server, calls);
  });

  it('lets members with read list and get, create members change, and hides the organization from outsiders', async () => {
    const { organization, admin, create, read, guest, outsider } = await newOrganizationWithRoles(server);
    await createSpec(admin, organization.id, 'pets', { text: JSON.stringify(OPENAPI_3) });

    const seen = await read.rest('GET', `${base(organization.id)}/pets`);
    expect(seen.status).toBe(200);
    expect(seen.body.permissions).toEqual({ view: true, edit: false });
    expect((await read.rest('GET', base(organization.id))).body.count).toBe(1);
    expectError(await read.rest('POST', base(organization.id), { slug: 'mine', source: { text: '{}' } }), 403, /needs the create role/);
    expectError(await read.rest('PUT', `${base(organization.id)}/pets`, { source: { text: '{}' } }), 403, /needs the create role/);
    expectError(await read.rest('DELETE', `${base(organization.id)}/pets`), 403, /needs the create role/);
    expectError(await guest.rest('GET', base(organization.id)), 403, /needs the read role/);

    const created = await create.rest('PUT', `${base(organization.id)}/other`, { source: { text: JSON.stringify(OPENAPI_3) } });
    expect(created.status).toBe(201);
    expect(created.body.permissions).toEqual({ view: true, edit: true });

    expectError(await outsider.rest('GET', base(organization.id)), 404, 'Organization not found');
    expectError(await outsider.rest('GET', `${base(organization.id)}/pets`), 404, 'Organization not found');
    // Another organization's admin cannot reach this organization's specs through their own.
    const theirs = await newOrganization(server, outsider);
    expectError(await outsider.rest('GET', `${base(theirs.id)}/pets`), 404, 'OpenAPI specification not found');
  });
});

describe('the operations', () => {
  it('creates a spec from a URL as pending with its Location, then processes it from the local server', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const created = await admin.rest('POST', base(organization.id), { slug: 'pets-api', source: { url: local('/v3.json') } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectContract('createOpenAPISpec', created);
    const createdAt = server.clock.now().toISOString();
    expect(created.body).toEqual({
      object: 'openapi-spec',
      id: expect.any(String),
      createdAt,
      updatedAt: createdAt,
      slug: 'pets-api',
      sourceURL: local('/v3.json'),
      processingState: 'pending',
      visibility: 'private',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: { location: `http://docs.test${base(organization.id)}/pets-api`, app: `http://docs.test/o/${organization.id}/openapi/pets-api` },
    });
    expect(created.headers.get('location')).toBe(created.body.urls.location);

    server.clock.advance(SECOND);
    const spec = await processed(admin, organization.id, 'pets-api');
    expect(spec).toMatchObject({ processingState: 'complete', lastVersion: aVersionId, lastProcessedAt: server.clock.now().toISOString() });
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expectContract('getOpenAPISpecBySlug', { status: 200, body: spec });

    const newest = (spec as { lastVersion: string }).lastVersion;
    const res = await admin.gql(OPERATIONS, { organizationId: organization.id, slug: 'pets-api' });
    expect(res.data.openAPISpec).toEqual({
      slug: 'pets-api',
      processingState: 'complete',
      // The newest version's id; its `info.version` is the version's.
      lastVersion: newest,
      latestVersion: { id: newest, version: '1.2.3' },
      title: 'Pets',
      format: 'openapi 3.0.3',
      operations: [
        { path: '/pets', method: 'get', operationId: 'listPets', summary: 'List pets', description: null, tags: ['pets'], deprecated: false },
        { path: '/pets', method: 'post', operationId: 'createPet', summary: 'Create a pet', description: null, tags: [], deprecated: true },
        { path: '/pets/{petId}', method: 'get', operationId: 'getPet', summary: 'Get a pet', description: 'One pet', tags: [], deprecated: false },
      ],
    });
  });

  it('processes Swagger 2.0 in YAML, and text given in the body', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await createSpec(admin, organization.id, 'legacy', { url: local('/v2.yaml') });
    await createSpec(admin, organization.id, 'inline', { text: SWAGGER_2_YAML });
    for (const slug of ['legacy', 'inline']) {
      expect(await processed(admin, organization.id, slug)).toMatchObject({ processingState: 'complete' });
      expect(await newestVersion(admin, organization.id, slug)).toBe('2024.1');
      const res = await admin.gql(OPERATIONS, { organizationId: organization.id, slug });
      expect(res.data.openAPISpec).toMatchObject({
        format: 'swagger 2.0',
        title: 'Legacy',
        operations: [{ path: '/users', method: 'get', summary: 'List users' }],
      });
    }
    const inline = (await admin.rest('GET', `${base(organization.id)}/inline`)).body;
    expect(inline.sourceURL).toBeUndefined();
  });

  it('follows redirects to allowed addresses', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await createSpec(admin, organization.id, 'moved', { url: local('/redirect-to-v3') });
    expect(await processed(admin, organization.id, 'moved')).toMatchObject({ processingState: 'complete' });
    expect(await newestVersion(admin, organization.id, 'moved')).toBe('1.2.3');
  });

  it('records the reference error code of each kind of failure', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const requestsBefore = specs.requests.length;
    const cases: [string, Record<string, string>, string][] = [
      ['broken-ref', { url: local('/broken-ref.json') }, 'PARSE_ERROR'],
      ['incomplete', { url: local('/incomplete.json') }, 'PARSE_ERROR'],
      ['garbage', { url: local('/not-a-spec') }, 'PARSE_ERROR'],
      ['not-openapi', { text: 'title: just some YAML' }, 'PARSE_ERROR'],
      ['missing', { url: local('/no-such-file.json') }, 'FETCH_ERROR'],
      ['too-large', { url: local('/large.json') }, 'FETCH_ERROR'],
      ['private', { url: `http://127.0.0.1:${specs.port}/v3.json` }, 'FETCH_ERROR'],
      ['private-redirect', { url: local('/redirect-to-private') }, 'FETCH_ERROR'],
      ['unreachable', { url: 'http://no-such-host.invalid/spec.json' }, 'FETCH_ERROR'],
      ['slow', { url: local('/hang') }, 'FETCH_TIMEOUT'],
    ];
    for (const [slug, source] of cases) await createSpec(admin, organization.id, slug, source);
    await runJobs();
    const list = await admin.rest('GET', `${base(organization.id)}?limit=100`);
    expectContract('listOpenAPISpecs', list);
    const bySlug = new Map(list.body.items.map((s: { slug: string }) => [s.slug, s]));
    for (const [slug, , code] of cases) {
      expect(bySlug.get(slug), slug).toMatchObject({ processingState: 'complete', lastProcessErrorCode: code, lastProcessedAt: expect.any(String) });
      expect((bySlug.get(slug) as { lastVersion?: string }).lastVersion, slug).toBeUndefined();
    }
    // The refused private address was never connected to; the redirect to it was not followed.
    expect(specs.requests.slice(requestsBefore).filter((path) => path === '/v3.json')).toHaveLength(0);
  });

  it("never follows a document's external references (no files, no URLs)", async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const requestsBefore = specs.requests.length;
    const external = {
      ...OPENAPI_3,
      paths: {
        '/a': { get: { responses: { '200': { $ref: `${local('/v2.yaml')}#/definitions/Users` } } } },
        '/b': { get: { responses: { '200': { $ref: '/etc/passwd' } } } },
      },
    };
    await createSpec(admin, organization.id, 'external', { text: JSON.stringify(external) });
    expect(await processed(admin, organization.id, 'external')).toMatchObject({ processingState: 'complete' });
    expect(await newestVersion(admin, organization.id, 'external')).toBe('1.2.3');
    expect(specs.requests.slice(requestsBefore)).toEqual([]);
  });

  it('PUT creates with 201, replaces the source with 200, and only the latest source is recorded', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const path = `${base(organization.id)}/changing`;
    const created = await admin.rest('PUT', path, { source: { url: local('/v3.json') } });
    expect(created.status).toBe(201);
    expectContract('createOrUpdateOpenAPISpecBySlug', created);
    expect(created.headers.get('location')).toBe(created.body.urls.location);

    server.clock.advance(SECOND);
    const replaced = await admin.rest('PUT', path, { source: { text: SWAGGER_2_YAML } });
    expect(replaced.status).toBe(200);
    expectContract('createOrUpdateOpenAPISpecBySlug', replaced);
    expect(replaced.body).toMatchObject({ id: created.body.id, processingState: 'pending', updatedAt: server.clock.now().toISOString() });
    expect(replaced.body.sourceURL).toBeUndefined();
    // Both jobs run; the first one's source is outdated, so its outcome is not recorded.
    const good = (await processed(admin, organization.id, 'changing')) as { lastVersion: string };
    expect(good).toMatchObject({ processingState: 'complete', lastVersion: aVersionId });
    expect(await newestVersion(admin, organization.id, 'changing')).toBe('2024.1');

    await admin.rest('PUT', path, { source: { url: local('/broken-ref.json') } });
    // A failed processing keeps the last version that was processed successfully.
    expect(await processed(admin, organization.id, 'changing')).toMatchObject({ lastVersion: good.lastVersion, lastProcessErrorCode: 'PARSE_ERROR' });
    expect(await newestVersion(admin, organization.id, 'changing')).toBe('2024.1');
  });

  it('deletes a spec (204); its queued job then ends without trace', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await createSpec(admin, organization.id, 'gone', { text: SWAGGER_2_YAML });
    const res = await admin.rest('DELETE', `${base(organization.id)}/gone`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectError(await admin.rest('GET', `${base(organization.id)}/gone`), 404, 'OpenAPI specification not found');
    expectError(await admin.rest('DELETE', `${base(organization.id)}/gone`), 404, 'OpenAPI specification not found');
    await runJobs();
    expect(await server.em().count(Job, { kind: 'openapi.process' })).toBe(0);
  });

  it('lists oldest first with pagination', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    for (const slug of ['a', 'b', 'c']) {
      server.clock.advance(SECOND);
      await createSpec(admin, organization.id, slug, { text: SWAGGER_2_YAML });
    }
    const first = await admin.rest('GET', `${base(organization.id)}?limit=2`);
    expect(first.body.items.map((s: { slug: string }) => s.slug)).toEqual(['a', 'b']);
    expect(first.body.count).toBe(3);
    const second = await admin.rest('GET', `${base(organization.id)}?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((s: { slug: string }) => s.slug)).toEqual(['c']);
    expect(second.body.next).toBeUndefined();
    expectError(await admin.rest('GET', `${base(organization.id)}?limit=1001`), 400, 'limit: must be an integer from 1 to 1000');
  });
});

describe('bad input', () => {
  it('answers 400 naming the field, changing nothing', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const cases: [unknown, string | RegExp][] = [
      [{ source: { text: '{}' } }, 'slug: is required'],
      [{ slug: 'ok' }, 'source: is required'],
      [{ slug: 'Not OK', source: { text: '{}' } }, 'slug: must be lowercase letters and digits in words joined by single hyphens'],
      [{ slug: 'a--b', source: { text: '{}' } }, /^slug: must be lowercase/],
      [{ slug: 'x'.repeat(101), source: { text: '{}' } }, 'slug: must be at most 100 characters'],
      [{ slug: '', source: { text: '{}' } }, 'slug: must be at least 1 character'],
      [{ slug: 'ok', source: {} }, 'source: give exactly one of url and text'],
      [{ slug: 'ok', source: { url: local('/v3.json'), text: '{}' } }, 'source: give exactly one of url and text'],
      [{ slug: 'ok', source: { url: 'ftp://example.com/spec.json' } }, 'source.url: must be an http(s) URL'],
      [{ slug: 'ok', source: { url: `https://example.com/${'x'.repeat(2048)}` } }, 'source.url: must be at most 2048 characters'],
      [{ slug: 'ok', source: { text: '' } }, 'source.text: must not be empty'],
      [{ slug: 'ok', source: { text: 'x'.repeat(5000) } }, 'source.text: must be at most 4096 bytes'],
      [{ slug: 'ok', source: { text: '{}' }, visibility: 'public' }, 'visibility: unknown field'],
    ];
    for (const [body, message] of cases) expectError(await admin.rest('POST', base(organization.id), body), 400, message);
    expectError(await admin.rest('PUT', `${base(organization.id)}/Bad_Slug`, { source: { text: '{}' } }), 400, /^specSlug: must be lowercase/);
    expect((await admin.rest('GET', base(organization.id))).body.count).toBe(0);
  });

  it('refuses a slug the organization already has (409), not one of another organization', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await createSpec(admin, organization.id, 'dup', { text: SWAGGER_2_YAML });
    expectError(
      await admin.rest('POST', base(organization.id), { slug: 'dup', source: { text: '{}' } }),
      409,
      'slug: the organization already has a specification "dup"',
    );
    const other = await newOrganization(server, admin);
    await createSpec(admin, other.id, 'dup', { text: SWAGGER_2_YAML });
  });
});

describe('GraphQL', () => {
  it('creates, replaces and deletes with the same rules', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const create = await admin.gql(
      `mutation($o: ID!, $input: CreateOpenAPISpecInput!) { createOpenAPISpec(organizationId: $o, input: $input) { slug processingState operations { path } owningOrganization { id } } }`,
      { o: organization.id, input: { slug: 'gql', source: { text: JSON.stringify(OPENAPI_3) } } },
    );
    expect(create.data.createOpenAPISpec).toEqual({ slug: 'gql', processingState: 'pending', operations: [], owningOrganization: { id: organization.id } });
    const put = await admin.gql(
      `mutation($o: ID!, $input: PutOpenAPISpecInput!) { putOpenAPISpec(organizationId: $o, specSlug: "gql", input: $input) { created spec { slug } } }`,
      { o: organization.id, input: { source: { url: local('/v3.json') } } },
    );
    expect(put.data.putOpenAPISpec).toEqual({ created: false, spec: { slug: 'gql' } });
    await runJobs();
    const list = await read.gql(`query($o: ID!) { openAPISpecs(organizationId: $o) { items { slug operations { operationId } } } }`, { o: organization.id });
    expect(list.data.openAPISpecs.items).toEqual([
      { slug: 'gql', operations: [{ operationId: 'listPets' }, { operationId: 'createPet' }, { operationId: 'getPet' }] },
    ]);
    expectGqlError(await read.gql(`mutation($o: ID!) { deleteOpenAPISpec(organizationId: $o, specSlug: "gql") }`, { o: organization.id }), 'FORBIDDEN');
    expectGqlError(
      await admin.gql(`mutation($o: ID!) { createOpenAPISpec(organizationId: $o, input: {slug: "x", source: {}}) { id } }`, { o: organization.id }),
      'BAD_REQUEST',
      'source: give exactly one of url and text',
    );
    expect((await admin.gql(`mutation($o: ID!) { deleteOpenAPISpec(organizationId: $o, specSlug: "gql") }`, { o: organization.id })).data).toEqual({
      deleteOpenAPISpec: true,
    });
  });
});

describe('a restart in the middle of processing', () => {
  it("finishes the job on the next server once the first one's lease has run out", async () => {
    const database = await freshDatabase();
    const clock = new ManualClock(new Date('2026-02-01T08:00:00.000Z'));
    try {
      const first = await startTestServer(FETCH_ENV, { database, clock });
      const admin = await newUser(first);
      const organization = await newOrganization(first, admin);
      const created = await admin.rest('POST', base(organization.id), { slug: 'interrupted', source: { url: local('/v3.json') } });
      expect(created.status).toBe(201);
      // A worker claims the job the way the queue does (a lease, a claim token, one attempt) and starts
      // processing, then the process dies before it finishes.
      const em = first.em();
      const claimed = { lockedUntil: new Date(clock.now().getTime() + LEASE_MS), claim: 'a-run-that-died', attempts: 1 };
      expect(await em.nativeUpdate(Job, { kind: 'openapi.process' }, claimed)).toBe(1);
      await em.nativeUpdate(OpenAPISpec, { id: created.body.id }, { processingState: 'progress' });
      await first.stop();

      const second = await startTestServer(FETCH_ENV, { database, clock });
      try {
        const again = { ...admin, rest: (method: string, path: string, body?: unknown) => rest(second, admin.token, method, path, body) };
        expect(await second.runDueJobs()).toBe(0); // the lease still holds
        expect((await again.rest('GET', `${base(organization.id)}/interrupted`)).body.processingState).toBe('progress');
        clock.advance(LEASE_MS + SECOND);
        expect(await second.runDueJobs()).toBe(1);
        const spec = (await again.rest('GET', `${base(organization.id)}/interrupted`)).body;
        expect(spec).toMatchObject({ processingState: 'complete', lastVersion: aVersionId, lastProcessedAt: clock.now().toISOString() });
        expect(await second.em().count(Job, {})).toBe(0);
      } finally {
        await second.stop();
      }
    } finally {
      await database.dispose();
    }
  });
});

describe('a run that lost its claim', () => {
  it("records nothing over the run that took the job over: the stored result is the later fetch's", async () => {
    // Each fetch of /versioned answers its own version; the first is held until the test lets it go.
    let fetches = 0;
    let releaseFirst!: () => void;
    const versioned = await startSpecServer({
      '/versioned': (_req, res) => {
        const version = String(++fetches);
        const answer = () => json({ ...OPENAPI_3, info: { ...OPENAPI_3.info, version } })(_req, res);
        if (version === '1') releaseFirst = answer;
        else answer();
      },
    });
    // A lease whose heartbeat would beat only after 200 s: the manual clock alone ends it.
    const own = await startTestServer({ ...FETCH_ENV, FETCH_TIMEOUT_MS: '60000', JOB_LEASE_MS: '600000' });
    try {
      const admin = await newUser(own);
      const organization = await newOrganization(own, admin);
      const created = await admin.rest('POST', base(organization.id), { slug: 'taken-over', source: { url: `http://localhost:${versioned.port}/versioned` } });
      expect(created.status).toBe(201);
      const stalled = own.runDueJobs();
      await vi.waitFor(() => expect(fetches).toBe(1), { timeout: 10 * SECOND, interval: 20 });
      // The first run stalls past its lease; another run takes the job over and fetches again.
      own.clock.advance(600 * SECOND + SECOND);
      expect(await own.runDueJobs()).toBe(1);
      const afterTakeOver = (await admin.rest('GET', `${base(organization.id)}/taken-over`)).body;
      expect(afterTakeOver).toMatchObject({ processingState: 'complete', lastVersion: aVersionId });
      expect(await newestVersion(admin, organization.id, 'taken-over')).toBe('2');

      releaseFirst();
      expect(await stalled).toBe(0);
      expect((await admin.rest('GET', `${base(organization.id)}/taken-over`)).body).toEqual(afterTakeOver);
      expect(fetches).toBe(2);
      expect(await own.em().count(Job, {})).toBe(0);
    } finally {
      await own.stop();
      await versioned.stop();
    }
  });
});
