/**
 * Several server processes on one PostgreSQL database, as operators run them behind a load balancer:
 * a job whose work outlives its first lease runs once, a killed instance's job is finished by another
 * within the lease, a token revoked through one is refused by another at once, and spaces created
 * through both at once in one collection get distinct positions. The embedded database is one process
 * by design (its data directory is locked): these run in the PostgreSQL run of the suite only.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, onServer } from './support/database.js';
import { spawnServer, stopProcess, waitFor, type ServerProcess } from './support/processes.js';
import { json, OPENAPI_3, startSpecServer } from './support/spec-server.js';

const OWNER_TOKEN = 'several-instances-owner-token-0123456789';
/** A short lease (renewed every second) and a short poll keep the waits short. */
const LEASE_MS = 3000;
const INSTANCE_ENV = {
  OWNER_TOKEN,
  JOB_LEASE_MS: String(LEASE_MS),
  JOB_POLL_MS: '100',
  FETCH_ALLOW_PRIVATE: '127.0.0.1',
  FETCH_TIMEOUT_MS: '60000',
  LOG_LEVEL: 'warn',
};
/** How long /slow takes to answer: longer than a lease. */
const SLOW_MS = LEASE_MS + 2000;
const WAIT_MS = 60_000;
const TEST_MS = 120_000;

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)('several instances on one database', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let specs: Awaited<ReturnType<typeof startSpecServer>>;
  /** Requests received per path, in order; each answers with its number as `info.version`. */
  const fetched = new Map<string, number>();
  let releaseHeld: (() => void) | undefined;
  const processes: ServerProcess[] = [];
  let a: ServerProcess;
  let b: ServerProcess;
  let organizationId: string;

  const count = (path: string) => {
    const n = (fetched.get(path) ?? 0) + 1;
    fetched.set(path, n);
    return n;
  };
  const answer = (res: ServerResponse, version: number) =>
    json({ ...OPENAPI_3, info: { ...OPENAPI_3.info, version: String(version) } })(undefined as never, res);

  async function start(): Promise<ServerProcess> {
    const server = await spawnServer({ ...database.env, ...INSTANCE_ENV });
    processes.push(server);
    await waitFor(server, async () => (await fetch(`${server.url}/healthz`).catch(() => undefined))?.status === 200, WAIT_MS);
    return server;
  }

  async function call(server: ServerProcess, method: string, path: string, body?: unknown, token = OWNER_TOKEN) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Polls a spec through `server` until its processing is complete; fails after WAIT_MS. */
  async function processed(server: ServerProcess, slug: string) {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const res = await call(server, 'GET', `/v1/orgs/${organizationId}/openapi/${slug}`);
      if (res.status === 200 && res.body.processingState === 'complete') return res.body;
      if (Date.now() > deadline) throw new Error(`${slug} not processed within ${WAIT_MS} ms: ${JSON.stringify(res.body)}`);
      await sleep(50);
    }
  }

  const sql = <T>(text: string, values: unknown[] = []) =>
    onServer(process.env.TEST_DATABASE_URL!, async (client) => {
      await client.query(`set search_path to "${database.env.DATABASE_SCHEMA}"`);
      return (await client.query(text, values)).rows as T[];
    });

  /** Per spec slug (in the order given): `info.version` of its newest version, and how many versions it has. */
  const newestVersions = (slugs: string[]) =>
    sql<{ version: string; versions: number }>(
      `select v."version", (select count(*)::int from "openapi_spec_version" w where w."spec_id" = s."id") as "versions"
       from unnest($1::text[]) with ordinality as wanted(slug, n)
       join "openapi_spec" s on s."slug" = wanted.slug join "openapi_spec_version" v on v."id" = s."last_version" order by wanted.n`,
      [slugs],
    );

  beforeAll(async () => {
    database = await freshDatabase();
    specs = await startSpecServer({
      ...Object.fromEntries(
        ['/slow/1', '/slow/2'].map((path) => [
          path,
          (_req, res) => {
            const n = count(path); // counted as it arrives: a second run fetching meanwhile would show
            setTimeout(() => answer(res, n), SLOW_MS);
          },
        ]),
      ),
      // The first request is held until released (or until the process that sent it dies); later ones answer at once.
      '/held': (_req, res) => {
        const n = count('/held');
        if (n === 1) releaseHeld = () => answer(res, n);
        else answer(res, n);
      },
    });
    // The first provisions the database, the second finds it provisioned.
    a = await start();
    b = await start();
    const orgs = await call(a, 'GET', '/v1/orgs');
    organizationId = orgs.body.items[0].id;
  }, TEST_MS);

  afterAll(async () => {
    await Promise.all(processes.map((server) => stopProcess(server)));
    await specs?.stop();
    await database?.dispose();
  });

  it(
    "run a job whose work outlives its first lease once: one fetch, and the stored result is that fetch's",
    async () => {
      // Two specs at once through both instances, each answering after more than a lease.
      const slugs = ['slow-1', 'slow-2'];
      const created = await Promise.all(
        slugs.map((slug, i) =>
          call(i % 2 ? b : a, 'POST', `/v1/orgs/${organizationId}/openapi`, { slug, source: { url: `http://127.0.0.1:${specs.port}/slow/${i + 1}` } }),
        ),
      );
      expect(created.map((res) => res.status)).toEqual([201, 201]);
      const results = await Promise.all(slugs.map((slug, i) => processed(i % 2 ? a : b, slug)));
      expect(slugs.map((_slug, i) => fetched.get(`/slow/${i + 1}`))).toEqual([1, 1]);
      for (const result of results) expect(result).toMatchObject({ processingState: 'complete' });
      expect(await newestVersions(slugs)).toEqual([
        { version: '1', versions: 1 },
        { version: '1', versions: 1 },
      ]);
      expect(await sql(`select "id" from "job" where "kind" = 'openapi.process'`)).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'refuse on one a token revoked through the other, at once',
    async () => {
      const created = await call(a, 'POST', '/graphql', { query: 'mutation { createApiToken(label: "two instances") { id token } }' });
      const { id, token } = created.body.data.createApiToken;
      expect((await call(b, 'GET', '/v1/user', undefined, token)).status).toBe(200);
      const revoked = await call(a, 'POST', '/graphql', { query: 'mutation($id: ID!) { revokeApiToken(id: $id) }', variables: { id } });
      expect(revoked.body.data).toEqual({ revokeApiToken: true });
      expect((await call(b, 'GET', '/v1/user', undefined, token)).status).toBe(401);
      expect((await call(a, 'GET', '/v1/user', undefined, token)).status).toBe(401);
    },
    TEST_MS,
  );

  it(
    'give spaces created through both at once in one collection distinct positions',
    async () => {
      const collection = await call(a, 'POST', `/v1/orgs/${organizationId}/collections`, { title: 'Shared' });
      expect(collection.status).toBe(201);
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          call(i % 2 ? b : a, 'POST', `/v1/orgs/${organizationId}/spaces`, { title: `Space ${i}`, parent: collection.body.id }),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(16).fill(201));
      const rows = await sql<{ position: string }>(`select "position" from "space" where "parent_id" = $1`, [collection.body.id]);
      expect(rows).toHaveLength(16);
      expect(new Set(rows.map((row) => row.position)).size).toBe(16);
    },
    TEST_MS,
  );

  it(
    "finish a killed instance's job on another within the lease",
    async () => {
      // One instance with a worker, so that it is the one that takes the job.
      await stopProcess(b);
      const created = await call(a, 'POST', `/v1/orgs/${organizationId}/openapi`, { slug: 'held', source: { url: `http://127.0.0.1:${specs.port}/held` } });
      expect(created.status).toBe(201);
      const deadline = Date.now() + WAIT_MS;
      while (!fetched.get('/held')) {
        if (Date.now() > deadline) throw new Error('the job was not started');
        await sleep(20);
      }
      const c = await start();
      const killedAt = Date.now();
      await stopProcess(a, 'SIGKILL');
      const spec = await processed(c, 'held');
      const takeoverMs = Date.now() - killedAt;
      console.log(
        `job of a killed instance finished on another ${takeoverMs} ms after kill -9 (JOB_LEASE_MS=${LEASE_MS}, JOB_POLL_MS=${INSTANCE_ENV.JOB_POLL_MS})`,
      );
      expect(spec).toMatchObject({ processingState: 'complete' });
      expect(await newestVersions(['held'])).toEqual([{ version: '2', versions: 1 }]);
      expect(fetched.get('/held')).toBe(2);
      expect(takeoverMs).toBeLessThan(10 * LEASE_MS);
      releaseHeld?.(); // the dead instance's request: nobody reads it any more
      expect(await sql(`select "id" from "job" where "kind" = 'openapi.process'`)).toEqual([]);
    },
    TEST_MS,
  );
});
