/**
 * Rate limits through both doors: the IETF RateLimit-* headers on counted answers, 429 with Retry-After
 * and the error body once a budget is spent (the refused request changing nothing), budgets per token
 * and per client address (failed authentications included), and, on a PostgreSQL server, one budget
 * shared by two instances and requests still served when the counters' database goes away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../src/domain/users/index.js';
import { freshDatabase } from './support/database.js';
import { callerFor, newOrganizationWithRoles, newUser, rest, type Caller, type Response } from './support/factories.js';
import { aggregate, siteEvent, track } from './support/insights.js';
import { startTestServer, useTestServer, type TestServer } from './support/server.js';
import { insertSite } from './support/sites.js';
import { TcpProxy } from './support/tcp-proxy.js';

const WINDOW_S = 3600;
const LIMITS = { RATE_LIMIT_READS: '4', RATE_LIMIT_WRITES: '3', RATE_LIMIT_INSIGHTS: '2', RATE_LIMIT_WINDOW_S: String(WINDOW_S) };

const server = useTestServer(LIMITS);

const VIEWER = '{ viewer { id } }';
const CREATE_SPACE = 'mutation($org: ID!, $title: String) { createSpace(organizationId: $org, input: { title: $title }) { id } }';

/** The rate-limit headers of an answer, as numbers. */
function limitsOf(res: { headers: Headers }) {
  const number = (name: string) => (res.headers.has(name) ? Number(res.headers.get(name)) : undefined);
  return { limit: number('ratelimit-limit'), remaining: number('ratelimit-remaining'), reset: number('ratelimit-reset') };
}

function expectCounted(res: { headers: Headers }, limit: number, remaining: number) {
  const counted = limitsOf(res);
  expect(counted).toEqual({ limit, remaining, reset: expect.any(Number) });
  expect(counted.reset).toBeGreaterThan(0);
  expect(counted.reset).toBeLessThanOrEqual(WINDOW_S);
  expect(res.headers.get('ratelimit-policy')).toBe(`${limit};w=${WINDOW_S}`);
}

function expectRestRefusal(res: Response, rateClass: string, subject: 'token' | 'address') {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
  expect(res.body).toEqual({
    error: {
      code: 429,
      message: expect.stringMatching(new RegExp(`^Rate limit exceeded: \\d+ ${rateClass} per ${WINDOW_S} s for this ${subject}; retry in ${retryAfter} s$`)),
    },
  });
  expect(limitsOf(res).remaining).toBe(0);
}

/** POST /graphql with the raw answer (status, headers, body). */
const graphql = (token: string | null, query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  rest(server, token, 'POST', '/graphql', { query, variables }, headers);

function expectGraphqlRefusal(res: Response) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors).toEqual([
    { message: expect.stringMatching(/^Rate limit exceeded: .*; retry in \d+ s$/), extensions: { code: 'RATE_LIMITED', status: 429 } },
  ]);
  expect(limitsOf(res).remaining).toBe(0);
}

/** A second token of the caller's user. */
async function secondToken(caller: Caller): Promise<Caller> {
  const { secret } = await createApiToken(server.em(), server.clock, caller.user.id, 'second');
  return callerFor(server, caller.user, secret);
}

/** Requests of one test come from an address of their own (the test client is on loopback, whose X-Forwarded-For is trusted by default). */
let addresses = 0;
const newAddress = () => `203.0.113.${++addresses}`;

describe('headers', () => {
  it('count reads, writes and insights ingestion apart, on both doors', async () => {
    const { admin, organization } = await newOrganizationWithRoles(server);
    expectCounted(await admin.rest('GET', '/v1/user'), 4, 3);
    expectCounted(await graphql(admin.token, VIEWER), 4, 2);
    expectCounted(await admin.rest('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'One' }), 3, 2);
    expectCounted(await graphql(admin.token, CREATE_SPACE, { org: organization.id, title: 'Two' }), 3, 1);

    const site = await insertSite(server, organization.id);
    const tracked = await track(admin, site, [siteEvent()]);
    expect(tracked.status).toBe(204);
    expectCounted(tracked, 2, 1);
    // The aggregate is a POST that reads: its document is a query.
    const aggregated = await aggregate(admin, site, { range: 'last24Hours', select: [{ column: 'eventsCount' }] });
    expect(aggregated.status).toBe(200);
    expectCounted(aggregated, 4, 1);
    const viaGraphql = await graphql(admin.token, 'mutation($siteId: ID!, $events: [JSON!]!) { trackSiteEvents(siteId: $siteId, events: $events) }', {
      siteId: site.id,
      events: [siteEvent()],
    });
    expect(viaGraphql.body).toEqual({ data: { trackSiteEvents: true } });
    expectCounted(viaGraphql, 2, 0);
  });

  it('are on error answers that were counted too', async () => {
    const caller = await newUser(server);
    const missing = await caller.rest('GET', '/v1/orgs/no-such-org');
    expect(missing.status).toBe(404);
    expectCounted(missing, 4, 3);
  });

  it('are absent from answers refused before the operation was known', async () => {
    const caller = await newUser(server);
    const invalid = await graphql(caller.token, '{ noSuchField }');
    expect(invalid.status).toBe(400);
    expect(limitsOf(invalid).limit).toBeUndefined();
    expect((await rest(server, null, 'GET', '/healthz')).headers.has('ratelimit-limit')).toBe(false);
  });

  it('count each root field of a GraphQL mutation as a write', async () => {
    const { admin, organization } = await newOrganizationWithRoles(server);
    const twice = `mutation($org: ID!) { a: createSpace(organizationId: $org, input: { title: "A" }) { id } b: createSpace(organizationId: $org, input: { title: "B" }) { id } }`;
    const res = await graphql(admin.token, twice, { org: organization.id });
    expect(res.body.errors).toBeUndefined();
    expectCounted(res, 3, 1);
  });
});

describe('over the budget', () => {
  it('refuses a REST write with 429, Retry-After and the error body, and creates nothing', async () => {
    const { admin, organization } = await newOrganizationWithRoles(server);
    for (const title of ['One', 'Two', 'Three']) expect((await admin.rest('POST', `/v1/orgs/${organization.id}/spaces`, { title })).status).toBe(201);
    const refused = await admin.rest('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Refused' });
    expectRestRefusal(refused, 'writes', 'token');
    // Reads are a budget of their own.
    const spaces = await admin.rest('GET', `/v1/orgs/${organization.id}/spaces`);
    expect(spaces.status).toBe(200);
    expect(spaces.body.items.map((space: { title: string }) => space.title).sort()).toEqual(['One', 'Three', 'Two']);
  });

  it('refuses a GraphQL mutation with HTTP 429, RATE_LIMITED and Retry-After, and creates nothing', async () => {
    const { admin, organization } = await newOrganizationWithRoles(server);
    for (const title of ['One', 'Two', 'Three'])
      expect((await graphql(admin.token, CREATE_SPACE, { org: organization.id, title })).body.errors).toBeUndefined();
    expectGraphqlRefusal(await graphql(admin.token, CREATE_SPACE, { org: organization.id, title: 'Refused' }));
    const spaces = await admin.rest('GET', `/v1/orgs/${organization.id}/spaces`);
    expect(spaces.body.items).toHaveLength(3);
  });

  it('refuses reads on both doors once the token spent its reads', async () => {
    const caller = await newUser(server);
    for (let i = 0; i < 4; i++) expect((await caller.rest('GET', '/v1/user')).status).toBe(200);
    expectRestRefusal(await caller.rest('GET', '/v1/user'), 'reads', 'token');
    expectGraphqlRefusal(await graphql(caller.token, VIEWER));
  });

  it('is per token: another token, of the same user too, is still served', async () => {
    const caller = await newUser(server);
    for (let i = 0; i < 4; i++) await caller.rest('GET', '/v1/user');
    expect((await caller.rest('GET', '/v1/user')).status).toBe(429);
    const sameUser = await secondToken(caller);
    const served = await sameUser.rest('GET', '/v1/user');
    expect(served.status).toBe(200);
    expectCounted(served, 4, 3);
    expect((await (await newUser(server)).gql(VIEWER)).status).toBe(200);
  });
});

describe('without a valid token', () => {
  it('counts calls by client address, on both doors', async () => {
    const address = { 'x-forwarded-for': newAddress() };
    const first = await rest(server, null, 'GET', '/v1/user', undefined, address);
    expect(first.status).toBe(401);
    expectCounted(first, 4, 3);
    expectCounted(await graphql(null, VIEWER, undefined, address), 4, 2);
    // Another address has its own budget.
    expectCounted(await rest(server, null, 'GET', '/v1/user', undefined, { 'x-forwarded-for': newAddress() }), 4, 3);
  });

  it('charges refused tokens to the address: guessing tokens ends in 429, on both doors', async () => {
    const address = { 'x-forwarded-for': newAddress() };
    for (let i = 0; i < 4; i++) {
      const guess = await rest(server, `guessed-token-${i}-0123456789abcdef`, 'GET', '/v1/user', undefined, address);
      expect(guess.status).toBe(401);
      expectCounted(guess, 4, 3 - i);
    }
    expectRestRefusal(await rest(server, 'guessed-token-4-0123456789abcdef', 'GET', '/v1/user', undefined, address), 'reads', 'address');
    expectGraphqlRefusal(await graphql('guessed-token-5-0123456789abcdef', VIEWER, undefined, address));
    // A valid token from that address has its own budget.
    expect((await (await newUser(server)).rest('GET', '/v1/user', undefined, address)).status).toBe(200);
  });

  it('charges a refused token of a GraphQL mutation to the address as a write', async () => {
    const address = { 'x-forwarded-for': newAddress() };
    const res = await graphql('guessed-token-0123456789abcdef', CREATE_SPACE, { org: 'any' }, address);
    expect(res.status).toBe(401);
    expectCounted(res, 3, 2);
  });
});

describe('client address', () => {
  let untrusting: TestServer;
  beforeAll(async () => {
    untrusting = await startTestServer({ ...LIMITS, TRUST_PROXY: 'false' });
  });
  afterAll(() => untrusting?.stop());

  it('ignores X-Forwarded-For from peers that are not trusted proxies', async () => {
    for (let i = 0; i < 4; i++) expect((await rest(untrusting, null, 'GET', '/v1/user', undefined, { 'x-forwarded-for': newAddress() })).status).toBe(401);
    expect((await rest(untrusting, null, 'GET', '/v1/user', undefined, { 'x-forwarded-for': newAddress() })).status).toBe(429);
  });

  it('refuses a TRUST_PROXY that express would not understand', async () => {
    await expect(startTestServer({ TRUST_PROXY: 'loopback,not-an-address' })).rejects.toThrow(/TRUST_PROXY: must be true, false, a hop count/);
  });
});

describe('off', () => {
  const unlimited = useTestServer({ RATE_LIMIT_READS: '0' });

  it('a class whose limit is 0 is neither counted nor limited; the others keep their defaults', async () => {
    const caller = await newUser(unlimited);
    const read = await caller.rest('GET', '/v1/user');
    expect(read.status).toBe(200);
    expect(read.headers.has('ratelimit-limit')).toBe(false);
    const { admin, organization } = await newOrganizationWithRoles(unlimited);
    const write = await admin.rest('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Counted' });
    expect(limitsOf(write)).toMatchObject({ limit: 300, remaining: 299 });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('on a PostgreSQL server', () => {
  it('two instances on one database share one budget', async () => {
    const fresh = await freshDatabase();
    const [a, b] = [await startTestServer(LIMITS, { database: fresh }), await startTestServer(LIMITS, { database: fresh })];
    try {
      const caller = await newUser(a);
      const call = (instance: TestServer) => rest(instance, caller.token, 'GET', '/v1/user');
      expectCounted(await call(a), 4, 3);
      expectCounted(await call(b), 4, 2);
      expectCounted(await call(a), 4, 1);
      expectCounted(await call(b), 4, 0);
      expect((await call(a)).status).toBe(429);
      expect((await call(b)).status).toBe(429);
    } finally {
      await a.stop();
      await b.stop();
      await fresh.dispose();
    }
  });

  it('serves requests when the counters cannot be reached: the limits are then kept in memory', async () => {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.open();
    const fresh = await freshDatabase();
    const proxied = new URL(target);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const { schema } = fresh.database as { schema: string };
    const instance = await startTestServer(
      { ...LIMITS, DATABASE_URL: proxied.href, DATABASE_SCHEMA: schema },
      { database: { ...fresh, database: { url: proxied.href, schema } } },
    );
    try {
      await proxy.close();
      // Without a token nothing else reads the database: the answer is the 401, counted in memory.
      const address = { 'x-forwarded-for': newAddress() };
      for (let i = 0; i < 4; i++) {
        const res = await rest(instance, null, 'GET', '/v1/user', undefined, address);
        expect(res.status).toBe(401);
        expectCounted(res, 4, 3 - i);
      }
      expect((await rest(instance, null, 'GET', '/v1/user', undefined, address)).status).toBe(429);
    } finally {
      await proxy.open();
      await instance.stop();
      await proxy.close();
      await fresh.dispose();
    }
  });
});
