/**
 * Read replicas (issue 37) on a real streaming replica made for this file (test/support/replica.ts):
 * a client's reads see its writes through both doors while the replica applies commits late, reads
 * that are safe go to the replica (counted there by PostgreSQL itself), a replica stopped under load
 * costs no request, revocation and member removal take effect on the next request, and two instances
 * share each user's read position. Skipped, saying why, where PostgreSQL's binaries are absent.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/kernel/config.js';
import { createSpace } from './support/content.js';
import { callerFor, newOrganization, newUser, type Caller } from './support/factories.js';
import { parseMetrics, valueOf } from './support/metrics.js';
import { replicaSkipReason, startReplicatedCluster, type ReplicatedCluster } from './support/replica.js';

type Titled = { id: string; title: string };
type SpaceList = { items: Titled[] };
import { startTestServer, type TestServer } from './support/server.js';
import { addMember } from '../src/domain/organizations/index.js';
import { replicaSetOf } from '../src/db/replicas.js';
import type { ReplicaOptions } from '../src/kernel/database.js';

const skip = replicaSkipReason();
if (skip) console.warn(skip);

/** The replica's delay of commits under which clients must still never see a stale answer. */
const DELAY_MS = 500;
const TEST_MS = 120_000;
const METRICS_TOKEN = 'replica-metrics-token-0123456789';
const ENV = { METRICS_TOKEN };

describe('configuration', () => {
  it('refuses replicas without a PostgreSQL server, and URLs that are not postgres:// ones', () => {
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return error instanceof ConfigError ? error.lines : [String(error)];
      }
      return [];
    };
    expect(refused({ DATABASE_REPLICA_URLS: 'postgres://replica/db' })).toEqual([
      'DATABASE_REPLICA_URLS: needs DATABASE_URL (the embedded database has no replicas)',
    ]);
    expect(refused({ DATABASE_URL: 'postgres://primary/db', DATABASE_REPLICA_URLS: 'postgres://a/db, http://b/db' })[0]).toMatch(
      /^DATABASE_REPLICA_URLS: must be comma-separated URLs/,
    );
    expect(refused({ DATABASE_URL: 'postgres://primary/db', REPLICA_MAX_LAG_MS: '10' })[0]).toMatch(/^REPLICA_MAX_LAG_MS:/);
    expect(refused({ DATABASE_URL: 'postgres://primary/db', REPLICA_QUERY_TIMEOUT_MS: '0' })[0]).toMatch(/^REPLICA_QUERY_TIMEOUT_MS:/);
    const config = loadConfig({ DATABASE_URL: 'postgres://primary/db', DATABASE_REPLICA_URLS: ' postgres://a/db ,postgresql://b/db' });
    expect(config.databaseReplicas).toEqual({ urls: ['postgres://a/db', 'postgresql://b/db'], maxLagMs: 5000, queryTimeoutMs: 3000 });
    expect(loadConfig({ DATABASE_URL: 'postgres://primary/db', REPLICA_QUERY_TIMEOUT_MS: '1500' }).databaseReplicas.queryTimeoutMs).toBe(1500);
  });
});

describe.skipIf(Boolean(skip))('read replicas', () => {
  let cluster: ReplicatedCluster;
  let a: TestServer;
  let b: TestServer;

  /** The primary with the replica, as the configuration's defaults would have them (or with `replicas` changed). */
  const database = (replicas: Partial<ReplicaOptions> = {}) => ({
    database: { url: cluster.primaryUrl, replicas: { urls: [cluster.replicaUrl], maxLagMs: 5000, queryTimeoutMs: 3000, ...replicas } },
    env: {},
    dispose: () => Promise.resolve(),
  });

  beforeAll(async () => {
    cluster = await startReplicatedCluster();
    a = await startTestServer(ENV, { database: database() });
    b = await startTestServer(ENV, { database: database() });
  }, TEST_MS);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await cluster?.dispose();
  }, TEST_MS);

  async function metrics(server: TestServer) {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    return parseMetrics(await res.text());
  }
  const replicaReads = async (server: TestServer) => valueOf(await metrics(server), 'docs_server_db_reads_total', { target: 'replica1' }) ?? 0;
  const inRotation = async (server: TestServer) => valueOf(await metrics(server), 'docs_server_db_replica_in_rotation', { replica: 'replica1' });
  /** Transactions the replica has served in the test database (PostgreSQL's own count). */
  const replicaTransactions = async () =>
    Number((await cluster.onReplica<{ n: string }>(`select xact_commit + xact_rollback as n from pg_stat_database where datname = 'postgres'`))[0].n);

  /** An organization of a new admin, set up outside the doors, with everything replayed before the test runs. */
  async function setUp(server: TestServer) {
    const admin = await newUser(server);
    const organization = await newOrganization(server, admin);
    await cluster.caughtUp();
    return { admin, organization };
  }

  async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
      await sleep(100);
    }
  }

  it(
    'create-then-read and update-then-list through both doors under a 500 ms delay: no stale answer',
    async () => {
      const { admin, organization } = await setUp(a);
      await until(async () => (await inRotation(a)) === 1, 'replica in rotation');
      await cluster.delayReplica(DELAY_MS);
      try {
        let stale = 0;
        for (let i = 0; i < 8; i++) {
          const created = await createSpace(admin, organization.id, `REST ${i}`);
          const read = await admin.rest<Titled>('GET', `/v1/spaces/${created.id}`);
          if (read.status !== 200 || read.body.title !== `REST ${i}`) stale++;

          const made = await admin.gql<{ createSpace: Titled }>(
            `mutation($o: ID!, $t: String!) { createSpace(organizationId: $o, input: { title: $t }) { id } }`,
            {
              o: organization.id,
              t: `GraphQL ${i}`,
            },
          );
          expect(made.errors).toBeUndefined();
          const got = await admin.gql<{ space: Titled | null }>(`query($id: ID!) { space(id: $id) { title } }`, { id: made.data.createSpace.id });
          if (got.data?.space?.title !== `GraphQL ${i}`) stale++;

          const renamed = await admin.rest('PATCH', `/v1/spaces/${created.id}`, { title: `Renamed ${i}` });
          expect(renamed.status).toBe(200);
          const list = await admin.rest<SpaceList>('GET', `/v1/orgs/${organization.id}/spaces?limit=100`);
          if (!list.body.items?.some((space) => space.title === `Renamed ${i}`)) stale++;

          await admin.gql(`mutation($id: ID!, $t: String!) { updateSpace(id: $id, input: { title: $t }) { id } }`, { id: created.id, t: `Again ${i}` });
          const listed = await admin.gql<{ spaces: SpaceList | null }>(`query($o: ID!) { spaces(organizationId: $o, limit: 100) { items { title } } }`, {
            o: organization.id,
          });
          if (!listed.data?.spaces?.items?.some((space) => space.title === `Again ${i}`)) stale++;
        }
        expect(stale).toBe(0);
      } finally {
        await cluster.delayReplica(0);
      }
    },
    TEST_MS,
  );

  it(
    "a reader's lists are served by the replica, counted there by PostgreSQL",
    async () => {
      const { admin, organization } = await setUp(a);
      await createSpace(admin, organization.id, 'Listed');
      const reader = await newUser(a);
      await addMember(a.em(), a.clock, organization.id, reader.user.id, 'read');
      await cluster.caughtUp();
      await until(async () => (await inRotation(a)) === 1, 'replica in rotation');
      // The health check's next round knows the replica has replayed the setup.
      await sleep(1500);
      const [readsBefore, transactionsBefore] = [await replicaReads(a), await replicaTransactions()];
      for (let i = 0; i < 20; i++) {
        const list = await reader.rest<SpaceList>('GET', `/v1/orgs/${organization.id}/spaces`);
        expect(list.status).toBe(200);
        expect(list.body.items.map((space) => space.title)).toContain('Listed');
      }
      expect((await replicaReads(a)) - readsBefore).toBeGreaterThanOrEqual(20);
      // Each list is at least one statement there (the health check adds about one a second); the
      // replica's sessions report their counts within seconds (PostgreSQL's cumulative statistics).
      await until(async () => (await replicaTransactions()) - transactionsBefore >= 20, 'the replica counting the reads', 20_000);
    },
    TEST_MS,
  );

  it(
    'the replica stopped and started under load: no request fails, and it comes back into rotation',
    async () => {
      const { admin, organization } = await setUp(a);
      const space = await createSpace(admin, organization.id, 'Under load');
      const reader = await newUser(a);
      await addMember(a.em(), a.clock, organization.id, reader.user.id, 'read');
      await cluster.caughtUp();
      await sleep(1500);
      let running = true;
      const failures: string[] = [];
      let answered = 0;
      const worker = async () => {
        while (running) {
          const [list, one] = await Promise.all([
            reader.rest<SpaceList>('GET', `/v1/orgs/${organization.id}/spaces`),
            reader.gql<{ space: Titled | null }>(`query($id: ID!) { space(id: $id) { title } }`, { id: space.id }),
          ]);
          answered += 2;
          if (list.status !== 200) failures.push(`REST ${list.status} ${JSON.stringify(list.body)}`);
          if (one.errors || one.data?.space?.title !== 'Under load') failures.push(`GraphQL ${JSON.stringify(one.errors)}`);
        }
      };
      const workers = [worker(), worker(), worker()];
      try {
        await sleep(500);
        await cluster.stopReplica();
        await until(async () => (await inRotation(a)) === 0, 'replica out of rotation', 10_000);
        await sleep(500);
        await cluster.startReplica();
        await until(async () => (await inRotation(a)) === 1, 'replica back in rotation', 20_000);
        const before = await replicaReads(a);
        await until(async () => (await replicaReads(a)) > before, 'reads on the replica again', 10_000);
      } finally {
        running = false;
        await Promise.all(workers);
      }
      expect(answered).toBeGreaterThan(20);
      expect(failures).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'a replica that hangs (SIGSTOP) under 20 concurrent reads: no request fails, it leaves the rotation at the first read unanswered, and comes back',
    async () => {
      // Reads give up sooner than the health check (2 s): the reads, not the check, take it out.
      const QUERY_TIMEOUT_MS = 1000;
      const hung = await startTestServer(ENV, { database: database({ queryTimeoutMs: QUERY_TIMEOUT_MS }) });
      const retried = async (reason: string) =>
        valueOf(await metrics(hung), 'docs_server_db_replica_reads_retried_total', { replica: 'replica1', reason }) ?? 0;
      let running = true;
      const workers: Promise<void>[] = [];
      try {
        const { admin, organization } = await setUp(hung);
        const space = await createSpace(admin, organization.id, 'Frozen');
        const reader = await newUser(hung);
        await addMember(hung.em(), hung.clock, organization.id, reader.user.id, 'read');
        await cluster.caughtUp();
        await until(async () => (await inRotation(hung)) === 1, 'replica in rotation');
        await sleep(1500);
        const failures: string[] = [];
        let answered = 0;
        let slowestMs = 0;
        // Half through REST, half through GraphQL, each checking its answer.
        const worker = async (door: number) => {
          while (running) {
            const started = Date.now();
            if (door % 2) {
              const list = await reader.rest<SpaceList>('GET', `/v1/orgs/${organization.id}/spaces`);
              if (list.status !== 200 || !list.body.items.some((item) => item.title === 'Frozen'))
                failures.push(`REST ${list.status} ${JSON.stringify(list.body)}`);
            } else {
              const one = await reader.gql<{ space: Titled | null }>(`query($id: ID!) { space(id: $id) { title } }`, { id: space.id });
              if (one.errors || one.data?.space?.title !== 'Frozen') failures.push(`GraphQL ${JSON.stringify(one.errors)}`);
            }
            answered++;
            slowestMs = Math.max(slowestMs, Date.now() - started);
          }
        };
        for (let i = 0; i < 20; i++) workers.push(worker(i));
        const readsBefore = await replicaReads(hung);
        await until(async () => (await replicaReads(hung)) > readsBefore + 20, 'reads on the replica before it hangs', 10_000);
        const timeoutsBefore = await retried('timeout');

        await cluster.pauseReplica();
        try {
          const pausedAt = Date.now();
          await until(async () => (await inRotation(hung)) === 0, 'hung replica out of rotation', 10_000);
          // Reads in flight on it when it froze time out and are answered by the primary.
          expect(Date.now() - pausedAt).toBeLessThan(QUERY_TIMEOUT_MS + 2000);
          await until(async () => (await retried('timeout')) > timeoutsBefore, 'reads retried on the primary after a timeout', 5000);
          // Meanwhile every read is the primary's, and the hung connections were destroyed rather than
          // kept checked out: the pool holds at most the health check's (connecting, or waiting for its answer).
          const answeredWhileHung = answered;
          await sleep(3000);
          expect(answered - answeredWhileHung).toBeGreaterThan(20);
          const pool = replicaSetOf(hung.em())!.replicas[0].pool;
          // A destroyed connection leaves the pool's counts once its socket has closed: on a loaded machine, moments later.
          await until(() => Promise.resolve(pool.totalCount - pool.idleCount <= 1), 'hung connections destroyed', 5000).catch(() => undefined);
          expect(pool.totalCount - pool.idleCount).toBeLessThanOrEqual(1);
        } finally {
          await cluster.resumeReplica();
        }
        await until(async () => (await inRotation(hung)) === 1, 'replica back in rotation', 20_000);
        const readsAfter = await replicaReads(hung);
        await until(async () => (await replicaReads(hung)) > readsAfter, 'reads on the replica again', 10_000);
        running = false;
        await Promise.all(workers);
        expect(failures).toEqual([]);
        // A read waits at most for a connection (2 s) and for its answer, then the primary's.
        expect(slowestMs).toBeLessThan(2000 + QUERY_TIMEOUT_MS + 3000);
        console.info(
          `hung replica: ${answered} reads answered, 0 failed, slowest ${slowestMs} ms, ${(await retried('timeout')) - timeoutsBefore} retried after a timeout`,
        );
      } finally {
        running = false;
        await cluster.resumeReplica();
        await Promise.all(workers);
        await hung.stop();
      }
    },
    TEST_MS,
  );

  it(
    'a revoked token and a removed member lose access on the very next request, under a delay',
    async () => {
      const { admin, organization } = await setUp(a);
      await createSpace(admin, organization.id, 'Private');
      const member = await newUser(a);
      await addMember(a.em(), a.clock, organization.id, member.user.id, 'read');
      const made = await member.gql<{ createApiToken: { id: string; token: string } }>(`mutation { createApiToken(label: "second") { id token } }`);
      const second = callerFor(a, member.user, made.data.createApiToken.token);
      await cluster.caughtUp();
      await sleep(1500);
      await cluster.delayReplica(3000);
      try {
        expect((await second.rest('GET', `/v1/orgs/${organization.id}/spaces`)).status).toBe(200);
        const revoked = await member.gql(`mutation($id: ID!) { revokeApiToken(id: $id) }`, { id: made.data.createApiToken.id });
        expect(revoked.errors).toBeUndefined();
        // On the other instance too: the token is read on the primary.
        for (const server of [a, b]) {
          const res = await callerFor(server, member.user, second.token).rest('GET', `/v1/orgs/${organization.id}/spaces`);
          expect(res.status).toBe(401);
        }

        expect((await member.rest('GET', `/v1/orgs/${organization.id}/spaces`)).status).toBe(200);
        const removed = await admin.rest('DELETE', `/v1/orgs/${organization.id}/members/${member.user.id}`);
        expect(removed.status).toBe(204);
        for (const server of [a, b]) {
          const caller = callerFor(server, member.user, member.token);
          expect((await caller.rest('GET', `/v1/orgs/${organization.id}/spaces`)).status).toBe(404);
          const res = await caller.gql(`query($o: ID!) { spaces(organizationId: $o) { items { id } } }`, { o: organization.id });
          expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
        }
      } finally {
        await cluster.delayReplica(0);
      }
    },
    TEST_MS,
  );

  it(
    "two instances share each user's read position: a write through one is read through the other",
    async () => {
      const { admin, organization } = await setUp(a);
      const throughB: Caller = callerFor(b, admin.user, admin.token);
      await cluster.delayReplica(DELAY_MS);
      try {
        let stale = 0;
        for (let i = 0; i < 8; i++) {
          const created = await createSpace(admin, organization.id, `Shared ${i}`);
          const read = await throughB.rest<Titled>('GET', `/v1/spaces/${created.id}`);
          if (read.status !== 200 || read.body.title !== `Shared ${i}`) stale++;
          const renamed = await throughB.rest('PATCH', `/v1/spaces/${created.id}`, { title: `From B ${i}` });
          expect(renamed.status).toBe(200);
          const list = await admin.rest<SpaceList>('GET', `/v1/orgs/${organization.id}/spaces?limit=100`);
          if (!list.body.items?.some((space) => space.title === `From B ${i}`)) stale++;
        }
        expect(stale).toBe(0);
      } finally {
        await cluster.delayReplica(0);
      }
    },
    TEST_MS,
  );

  it(
    'concurrent identical writes keep the furthest read position',
    async () => {
      const { admin, organization } = await setUp(a);
      const [{ before }] = await cluster.onPrimary<{ before: string }>('select pg_current_wal_lsn()::text as before');
      const statuses = await Promise.all(
        [a, b, a, b].map(async (server) => {
          const res = await callerFor(server, admin.user, admin.token).rest('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Same' });
          return res.status;
        }),
      );
      expect(statuses).toEqual([201, 201, 201, 201]);
      // One row for the user, past every write's start, and never ahead of the primary.
      const positions = await cluster.onPrimary<{ moved: boolean; behind: boolean }>(
        'select lsn > $2::pg_lsn as moved, lsn <= pg_current_wal_lsn() as behind from read_position where user_id = $1',
        [admin.user.id, before],
      );
      expect(positions).toEqual([{ moved: true, behind: true }]);
      const list = await admin.rest<SpaceList>('GET', `/v1/orgs/${organization.id}/spaces?limit=100`);
      expect(list.body.items.filter((space) => space.title === 'Same')).toHaveLength(4);
    },
    TEST_MS,
  );

  it(
    'a replica lagging past REPLICA_MAX_LAG_MS leaves the rotation and comes back once it catches up',
    async () => {
      const strict = await startTestServer(ENV, { database: database({ maxLagMs: 1000 }) });
      try {
        const { admin, organization } = await setUp(strict);
        await until(async () => (await inRotation(strict)) === 1, 'replica in rotation');
        await cluster.delayReplica(4000);
        // Writes keep the primary's log moving: the replica's replay falls behind them.
        await until(
          async () => {
            await createSpace(admin, organization.id, 'Moving');
            return (await inRotation(strict)) === 0;
          },
          'replica out of rotation',
          15_000,
        );
        const lag = valueOf(await metrics(strict), 'docs_server_db_replica_lag_seconds', { replica: 'replica1' });
        expect(lag === undefined || lag > 1).toBe(true);
        await cluster.delayReplica(0);
        await until(async () => (await inRotation(strict)) === 1, 'replica back in rotation', 15_000);
      } finally {
        await cluster.delayReplica(0);
        await strict.stop();
      }
    },
    TEST_MS,
  );
});
