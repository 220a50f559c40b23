import type pg from 'pg';
import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedQuery } from '../src/domain/content/index.js';
import { serviceUnavailable } from '../src/kernel/errors.js';
import { logRequestFailures } from '../src/http/door-errors.js';
import { Team } from '../src/domain/teams/index.js';
import { dedicatedDatabase, freshDatabase, onServer, renamedAway, type DedicatedDatabase } from './support/database.js';
import { expectError } from './support/expectations.js';
import { newOrganizationWithRoles, rest, type Caller } from './support/factories.js';
import { capturedLogs } from './support/logs.js';
import { createTeam } from './support/people.js';
import { identityProviderKeys, newSamlId, samlResponseField, samlResponseXml, signSaml } from './support/saml.js';
import { startTestServer, type TestServer } from './support/server.js';
import { TcpProxy } from './support/tcp-proxy.js';

/*
 * The database server going away: the server reaches it through a TCP proxy that the tests stop, start
 * and cut. The embedded database cannot go away, so these run on a server only.
 */

const UNAVAILABLE = { error: { code: 503, message: 'Database unavailable, retry later' } };

describe.skipIf(!process.env.TEST_DATABASE_URL)('a PostgreSQL server that goes away', () => {
  let proxy: TcpProxy;
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let server: TestServer;
  let admin: Caller;
  let organizationId: string;

  beforeAll(async () => {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.open();
    fresh = await freshDatabase();
    const proxied = new URL(target);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const { schema } = fresh.database as { schema: string };
    server = await startTestServer(
      { DATABASE_URL: proxied.href, DATABASE_SCHEMA: schema },
      { database: { ...fresh, database: { url: proxied.href, schema } } },
    );
    const team = await newOrganizationWithRoles(server);
    admin = team.admin;
    organizationId = team.organization.id;
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await fresh?.dispose();
  });

  const readOrganization = () => admin.rest('GET', `/v1/orgs/${organizationId}`);
  const queryOrganization = () => admin.gql(`query($id: ID!) { organization(id: $id) { id title } }`, { id: organizationId });

  it('answers 503 with Retry-After on both doors while it refuses connections, and serves again once it is back', async () => {
    expect((await readOrganization()).status).toBe(200);
    await proxy.close();
    try {
      for (const answer of [await readOrganization(), await admin.rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: 'During the outage' })]) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(answer.body).toEqual(UNAVAILABLE);
      }
      const graphql = await rest(server, admin.token, 'POST', '/graphql', { query: '{ viewer { id } }' });
      expect(graphql.status).toBe(503);
      expect(graphql.headers.get('retry-after')).toBe('5');
      expect(graphql.body.errors).toEqual([
        expect.objectContaining({ message: UNAVAILABLE.error.message, extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 } }),
      ]);
      expect((await rest(server, null, 'GET', '/healthz')).status).toBe(503);
    } finally {
      await proxy.open();
    }
    expect((await readOrganization()).status).toBe(200);
    const graphql = await queryOrganization();
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.organization.id).toBe(organizationId);
    expect((await rest(server, null, 'GET', '/healthz')).status).toBe(200);
    expect(await server.em().count(Team, { title: 'During the outage' })).toBe(0);
  });

  it('answers a query whose connections were cut while idle', async () => {
    expect((await readOrganization()).status).toBe(200);
    proxy.cutConnections();
    expect((await readOrganization()).status).toBe(200);
    proxy.cutConnections();
    expect((await queryOrganization()).errors).toBeUndefined();
  });

  it('runs a read again on a new connection when its connection is cut under it, on both doors', async () => {
    // Under the token's lookup, which every request makes first.
    proxy.cutWhenSent('from "api_token"');
    expect((await readOrganization()).status).toBe(200);
    // Under the operation's own read. A named statement's text crosses the wire once per connection:
    // fresh connections send it again.
    proxy.cutConnections();
    proxy.cutWhenSent('from "organization" t where');
    const restAnswer = await readOrganization();
    expect(restAnswer.status).toBe(200);
    expect(restAnswer.body.id).toBe(organizationId);
    proxy.cutConnections();
    proxy.cutWhenSent('from "organization" t where');
    const graphql = await queryOrganization();
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.organization.id).toBe(organizationId);
  });

  it('answers 503 to a query whose connection is cut under it when the server is gone for its second run too', async () => {
    proxy.cutConnections();
    proxy.cutWhenSent('from "organization" t where', { refuse: true });
    try {
      const answer = await readOrganization();
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.body).toEqual(UNAVAILABLE);
    } finally {
      await proxy.open();
    }
    expect((await readOrganization()).status).toBe(200);
  });

  it('answers 503 to a write whose connection is cut under it, and does not run it again', async () => {
    proxy.cutWhenSent('insert into');
    const cut = await admin.rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: 'Cut under its insert' });
    expect(cut.status).toBe(503);
    expect(cut.headers.get('retry-after')).toBe('5');
    expect(cut.body).toEqual(UNAVAILABLE);
    expect(await server.em().count(Team, { title: 'Cut under its insert' })).toBe(0);

    proxy.cutWhenSent('insert into');
    const graphql = await rest(server, admin.token, 'POST', '/graphql', {
      query: `mutation($o: ID!) { createTeam(organizationId: $o, input: { title: "Cut under its insert" }) { id } }`,
      variables: { o: organizationId },
    });
    expect(graphql.status).toBe(503);
    expect(graphql.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(await server.em().count(Team, { title: 'Cut under its insert' })).toBe(0);
    expect((await admin.rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: 'After the cut' })).status).toBe(201);
  });

  it('keeps serving after more transactions were cut than the pool has connections', async () => {
    // A connection lost inside a transaction must not stay checked out of the pool (10 connections).
    for (let i = 0; i < 12; i++) {
      proxy.cutWhenSent('insert into');
      expect((await admin.rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: 'Cut again' })).status).toBe(503);
    }
    expect((await admin.rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: 'Served again' })).status).toBe(201);
    expect(await server.em().count(Team, { title: 'Cut again' })).toBe(0);
  });
});

/*
 * The database refusing this server rather than the network failing: closed to connections, out of
 * connections for the server's role, the server's right to connect revoked, renamed away (no such
 * database), or the TCP connection cut and refused. The server runs on a database and role of its own,
 * reached through a TCP proxy; the tests change only those.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('a PostgreSQL server that refuses connections to the database', () => {
  const { logger, lines } = capturedLogs();
  const adminUrl = process.env.TEST_DATABASE_URL!;
  let dedicated: DedicatedDatabase;
  let proxy: TcpProxy;
  let server: TestServer;
  let admin: Caller;
  let organizationId: string;
  let team: { id: string; title: string };
  let samlProviderId: string;
  let fileQuery: string;
  let pdfQuery: string;

  beforeAll(async () => {
    dedicated = await dedicatedDatabase();
    const target = new URL(dedicated.url);
    proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.open();
    const proxied = new URL(target);
    proxied.host = `127.0.0.1:${proxy.port}`;
    server = await startTestServer({ DATABASE_URL: proxied.href }, { logger, database: { database: { url: proxied.href }, env: {}, dispose: async () => {} } });
    const people = await newOrganizationWithRoles(server);
    admin = people.admin;
    organizationId = people.organization.id;
    team = await createTeam(admin, organizationId, 'Kept through the outages');
    const provider = await admin.rest('POST', `/v1/orgs/${organizationId}/saml`, {
      label: 'Okta',
      entityID: 'https://idp.example.com/metadata',
      ssoURL: 'https://idp.example.com/sso',
      certificate: identityProviderKeys().certificate,
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    samlProviderId = provider.body.id;
    // Signed while the database answers (the signing key is read once): the outage meets the read of what they name.
    fileQuery = await signedQuery(server.em(), server.clock, 'no-such-file');
    pdfQuery = await signedQuery(server.em(), server.clock, 'pdf|no-such-space|no-such-revision||0');
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await dedicated?.dispose();
  });

  const onAdmin = (work: (client: pg.Client) => Promise<unknown>) => onServer(adminUrl, work);

  /** Ends the database's sessions (the server's pool and its listener) and waits until they are gone. */
  async function endSessions(client: pg.Client) {
    const sessions = `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`;
    await client.query(sessions, [dedicated.name]);
    for (;;) {
      const { rows } = await client.query(`select count(*)::int as left from pg_stat_activity where datname = $1`, [dedicated.name]);
      if (rows[0].left === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  type Outage = { what: string; cause: RegExp; refused?: boolean; begin(): Promise<unknown>; end(): Promise<unknown> };
  const outages: Outage[] = [
    {
      what: 'closed to connections (ALLOW_CONNECTIONS false) and its sessions ended',
      cause: /^55000 database "dptest_\w+" is not currently accepting connections$/,
      begin: () =>
        onAdmin(async (client) => {
          await client.query(`alter database "${dedicated.name}" allow_connections false`);
          await endSessions(client);
        }),
      end: () => onAdmin((client) => client.query(`alter database "${dedicated.name}" allow_connections true`)),
    },
    {
      what: "out of connections for the server's role (CONNECTION LIMIT 0) and its sessions ended",
      cause: /^53300 too many connections for role "dptest_\w+"$/,
      begin: () =>
        onAdmin(async (client) => {
          await client.query(`alter role "${dedicated.name}" connection limit 0`);
          await endSessions(client);
        }),
      end: () => onAdmin((client) => client.query(`alter role "${dedicated.name}" connection limit -1`)),
    },
    {
      what: 'closed to the server (its CONNECT privilege revoked) and its sessions ended',
      cause: /^42501 permission denied for database "dptest_\w+"$/,
      refused: true,
      begin: () =>
        onAdmin(async (client) => {
          await client.query(`revoke connect on database "${dedicated.name}" from public, "${dedicated.name}"`);
          await endSessions(client);
        }),
      end: () => onAdmin((client) => client.query(`grant connect on database "${dedicated.name}" to public, "${dedicated.name}"`)),
    },
    {
      what: 'renamed away (no such database)',
      cause: /^3D000 database "dptest_\w+" does not exist$/,
      refused: true,
      begin: () =>
        onAdmin(async (client) => {
          await client.query(`alter database "${dedicated.name}" allow_connections false`);
          await endSessions(client);
          await client.query(`alter database "${dedicated.name}" rename to "${renamedAway(dedicated.name)}"`);
        }),
      end: () =>
        onAdmin(async (client) => {
          await client.query(`alter database "${renamedAway(dedicated.name)}" rename to "${dedicated.name}"`);
          await client.query(`alter database "${dedicated.name}" allow_connections true`);
        }),
    },
    {
      what: 'cut at the TCP level and refusing connections',
      cause: /^(ECONNREFUSED|ECONNRESET|Connection terminated unexpectedly)\b/,
      begin: () => proxy.close(),
      end: () => proxy.open(),
    },
  ];

  type Answer = { door: 'rest' | 'graphql' | 'plain'; call: string; id: string; status: number; headers: Headers; body: any };

  /** Reads and writes through both doors and the plain HTTP endpoints that read the database, all at once. */
  function callEveryDoor(tag: string): Promise<Answer[]> {
    const org = `/v1/orgs/${organizationId}`;
    const calls: [door: Answer['door'], method: string, path: string, body?: unknown, headers?: Record<string, string>][] = [
      ['rest', 'GET', org],
      ['rest', 'GET', `${org}/teams`],
      ['rest', 'PUT', `${org}/teams`, { title: `During ${tag}` }],
      ['rest', 'PATCH', `${org}/teams/${team.id}`, { title: `Renamed during ${tag}` }],
      ['rest', 'DELETE', `${org}/teams/${team.id}`],
      [
        'graphql',
        'POST',
        '/graphql',
        { query: `query($id: ID!) { organization(id: $id) { id title } }`, variables: { id: organizationId } },
        { accept: 'application/json' },
      ],
      ['graphql', 'POST', '/graphql', { query: `{ viewer { id } }` }, { accept: 'application/graphql-response+json' }],
      [
        'graphql',
        'POST',
        '/graphql',
        {
          query: `mutation($o: ID!, $t: String!) { createTeam(organizationId: $o, input: { title: $t }) { id } }`,
          variables: { o: organizationId, t: `During ${tag}` },
        },
      ],
      [
        'graphql',
        'GET',
        `/graphql?query=${encodeURIComponent('{ viewer { id } }')}`,
        undefined,
        { accept: 'application/json', 'apollo-require-preflight': 'true' },
      ],
      ['plain', 'GET', `/files/no-such-file/notes.txt?${fileQuery}`],
      ['plain', 'GET', `/pdf/no-such-space?revision=no-such-revision&${pdfQuery}`],
      ['plain', 'GET', `/saml/${samlProviderId}/metadata`],
      ['plain', 'GET', `/saml/${samlProviderId}/start`],
      ['plain', 'POST', `/saml/${samlProviderId}/acs`, 'SAMLResponse=PHNhbWxwOlJlc3BvbnNlLz4=', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['plain', 'GET', '/admin/backup'],
    ];
    return Promise.all(
      calls.map(async ([door, method, path, body, headers], i) => {
        const id = `${tag}-${i}`;
        const token = path.startsWith('/saml/') || path.startsWith('/files/') || path.startsWith('/pdf/') ? null : admin.token;
        const answer = await rest(server, token, method, path, body, { 'x-request-id': id, ...headers });
        return { door, call: `${method} ${path.split('?')[0]}`, id, ...answer };
      }),
    );
  }

  /** The log entries of one request. */
  const loggedFor = (id: string) =>
    lines
      .map((line) => JSON.parse(line) as { level: number; msg: string; res?: { statusCode: number }; req?: { id?: string }; cause?: string; err?: unknown })
      .filter((entry) => entry.req?.id === id);

  for (const [index, outage] of outages.entries()) {
    it(`answers 503 with Retry-After to every call while the database is ${outage.what}, changes nothing, and serves again once it is back`, async () => {
      const tag = `outage${index}`;
      expect((await admin.rest('GET', `/v1/orgs/${organizationId}`)).status).toBe(200);
      await outage.begin();
      let answers: Answer[];
      let health: Awaited<ReturnType<typeof rest>>;
      try {
        answers = await callEveryDoor(tag);
        health = await rest(server, null, 'GET', '/healthz');
      } finally {
        await outage.end();
      }

      for (const answer of answers) {
        const where = `${answer.call}: ${JSON.stringify(answer.body)}`;
        expect(answer.status, where).toBe(503);
        expect(answer.headers.get('retry-after'), where).toBe('5');
        if (answer.door === 'graphql') {
          expect(answer.body.data, where).toBeUndefined();
          expect(answer.body.errors, where).toEqual([{ message: UNAVAILABLE.error.message, extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 } }]);
        } else expect(answer.body, where).toEqual(UNAVAILABLE);
        // One line per request says why; no line carries a stack, and none is an unexpected error.
        const logged = loggedFor(answer.id);
        const why = logged.filter((entry) => entry.cause !== undefined);
        expect(why, where).toHaveLength(1);
        expect(why[0].cause, where).toMatch(outage.cause);
        expect(why[0], where).toMatchObject(
          outage.refused ? { level: 50, msg: expect.stringMatching(/^database refuses this server/) } : { level: 40, msg: 'database unavailable' },
        );
        expect(
          logged.filter((entry) => entry.res),
          where,
        ).toEqual([expect.objectContaining({ level: 40, res: expect.objectContaining({ statusCode: 503 }) })]);
        expect(
          logged.filter((entry) => entry.err !== undefined || entry.msg === 'unexpected error'),
          where,
        ).toEqual([]);
      }
      expect(health!.status).toBe(503);
      expect(health!.body).toMatchObject({ status: 'unavailable' });

      // Back without a restart: reads, writes, the plain endpoints and the health check.
      const organization = await admin.rest('GET', `/v1/orgs/${organizationId}`);
      expect(organization.status).toBe(200);
      const graphql = await admin.gql(`query($id: ID!) { organization(id: $id) { id } }`, { id: organizationId });
      expect(graphql.errors).toBeUndefined();
      expect(graphql.data.organization.id).toBe(organizationId);
      expect((await admin.rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: `After ${tag}` })).status).toBe(201);
      expectError(await rest(server, null, 'GET', `/files/no-such-file/notes.txt?${fileQuery}`), 404, 'File not found');
      expect((await rest(server, null, 'GET', `/saml/${samlProviderId}/metadata`)).status).toBe(200);
      expect((await rest(server, null, 'GET', '/healthz')).status).toBe(200);
      // The refused writes left no trace.
      expect(await server.em().count(Team, { title: { $ilike: `%during ${tag}` } })).toBe(0);
      const kept = await admin.rest('GET', `/v1/orgs/${organizationId}/teams/${team.id}`);
      expect(kept.status).toBe(200);
      expect(kept.body.title).toBe(team.title);
    });
  }

  it('answers 503, not a refusal of the response, when the database fails while a SAML login checks its request', async () => {
    const idp = identityProviderKeys();
    const provider = await admin.rest('POST', `/v1/orgs/${organizationId}/saml`, {
      label: 'Cut while checking',
      entityID: 'https://idp.example.com/metadata',
      ssoURL: 'https://idp.example.com/sso',
      certificate: idp.certificate,
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const { acsURL, entityID } = provider.body.service as { acsURL: string; entityID: string };
    const response = signSaml(
      samlResponseXml({
        issuer: 'https://idp.example.com/metadata',
        inResponseTo: newSamlId(),
        acsURL,
        audience: entityID,
        email: 'ada@corp.example.com',
        issuedAt: server.clock.now(),
      }),
      idp,
    );
    // The signature holds; the connection is cut as the InResponseTo of the response is looked up.
    proxy.cutWhenSent('from "saml_request" as', { refuse: true });
    let answer: Awaited<ReturnType<typeof rest>>;
    try {
      answer = await rest(server, null, 'POST', new URL(acsURL).pathname, `SAMLResponse=${encodeURIComponent(samlResponseField(response))}`, {
        'content-type': 'application/x-www-form-urlencoded',
      });
    } finally {
      await proxy.open();
    }
    expect(answer.status, JSON.stringify(answer.body)).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.body).toEqual(UNAVAILABLE);
  });
});

describe('the logs of a GraphQL request that the database failed in several fields', () => {
  it('say why once, without a stack', () => {
    const { logger, lines } = capturedLogs();
    // What a batch read that failed for every item of a list answers: one error per item.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const failures = [0, 1, 2].map(
      (i) =>
        new GraphQLError('Database unavailable, retry later', { path: ['spaces', 'items', i, 'parentCollection'], originalError: serviceUnavailable(refused) }),
    );
    logRequestFailures(logger, failures);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'database unavailable',
        cause: 'ECONNREFUSED (nothing listens there)',
        path: ['spaces', 'items', 0, 'parentCollection'],
      }),
    ]);
    expect(lines.join('\n')).not.toContain('stack');
  });
});
