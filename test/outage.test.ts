import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Team } from '../src/domain/teams/entities.js';
import { freshDatabase } from './support/database.js';
import { newOrganizationWithRoles, rest, type Caller } from './support/factories.js';
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
      expect(graphql.body.errors).toEqual([expect.objectContaining({ message: UNAVAILABLE.error.message, extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 } })]);
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
    // Under the operation's own read.
    proxy.cutWhenSent('"organization" as "o0"');
    const restAnswer = await readOrganization();
    expect(restAnswer.status).toBe(200);
    expect(restAnswer.body.id).toBe(organizationId);
    proxy.cutWhenSent('"organization" as "o0"');
    const graphql = await queryOrganization();
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.organization.id).toBe(organizationId);
  });

  it('answers 503 to a query whose connection is cut under it when the server is gone for its second run too', async () => {
    proxy.cutWhenSent('"organization" as "o0"', { refuse: true });
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
