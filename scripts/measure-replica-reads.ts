/**
 * How much of the primary's read load one streaming replica takes (issue 37; figures in docs/scaling.md).
 * Makes its own primary and replica (test/support/replica.ts: needs PostgreSQL's server binaries), starts
 * the server on them, seeds bench:tree's site (20 sections × 25 site spaces) and an organization's
 * spaces, then sends, 4 at a time: the site tree through GraphQL and the list pages through REST, as a
 * reader who never writes; then the same with a writer (one write in ten requests, same token). It
 * reports the plain reads per target (the server's counts) and the transactions each database served
 * (PostgreSQL's own `pg_stat_database`, health checks included).
 *
 *   node --import tsx scripts/measure-replica-reads.ts            (REQUESTS=400 by default)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startReplicatedCluster } from '../test/support/replica.js';
import { createOrganization } from '../src/domain/organizations/index.js';
import { createApiToken, createUser } from '../src/domain/users/index.js';
import { systemClock } from '../src/kernel/clock.js';
import { replicaSetOf } from '../src/db/replicas.js';
import { startBenchServer } from './bench-server.js';
import { seedSiteTree, SITE_TREE_QUERY } from './site-tree.js';

const REQUESTS = Number(process.env.REQUESTS ?? 400);
const CONCURRENCY = 4;

const cluster = await startReplicatedCluster();
process.env.DATABASE_URL = cluster.primaryUrl;
process.env.DATABASE_REPLICA_URLS = cluster.replicaUrl;
const { server } = await startBenchServer('replica-reads');
try {
  const em = server.deps.orm.em.fork();
  const owner = await createUser(em, systemClock, { email: 'owner@replicas.test', displayName: 'Owner' });
  const { secret } = await createApiToken(em, systemClock, owner.id, 'measure');
  const organization = await createOrganization(em, systemClock, owner.id, { title: 'Measured' });
  const siteId = await seedSiteTree(server.deps.orm.em.fork(), organization.id, 20, 25, 5);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await res.arrayBuffer();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
  };
  const reads = [
    () => call('POST', '/graphql', { query: SITE_TREE_QUERY, variables: { id: siteId } }),
    () => call('GET', `/v1/orgs/${organization.id}/spaces?limit=100`),
    () => call('GET', `/v1/orgs/${organization.id}/sites`),
    () => call('GET', `/v1/orgs/${organization.id}/members`),
  ];
  await cluster.caughtUp();
  await sleep(1500);

  const transactions = async () => {
    const text = `select xact_commit + xact_rollback as n from pg_stat_database where datname = 'postgres'`;
    const [[primary], [replica]] = await Promise.all([cluster.onPrimary<{ n: string }>(text), cluster.onReplica<{ n: string }>(text)]);
    return { primary: Number(primary.n), replica: Number(replica.n) };
  };
  const replicas = replicaSetOf(server.deps.orm.em)!;
  const counts = () => ({ primary: replicas.reads.get('primary') ?? 0, replica: replicas.reads.get('replica1') ?? 0 });

  async function measure(label: string, writeEvery: number) {
    const [readsBefore, xactBefore] = [counts(), await transactions()];
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          const i = next++;
          if (writeEvery && i % writeEvery === 0) await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: `Written ${i}` });
          else await reads[i % reads.length]();
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    // PostgreSQL's sessions report their counts within a second or so of going idle.
    await sleep(2500);
    const [readsAfter, xactAfter] = [counts(), await transactions()];
    const plain = { primary: readsAfter.primary - readsBefore.primary, replica: readsAfter.replica - readsBefore.replica };
    const xact = { primary: xactAfter.primary - xactBefore.primary, replica: xactAfter.replica - xactBefore.replica };
    const share = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;
    console.log(
      `${label}: ${REQUESTS} requests in ${seconds.toFixed(1)} s; plain reads primary ${plain.primary}, replica ${plain.replica} ` +
        `(${share(plain.replica, plain.primary + plain.replica)} on the replica); transactions primary ${xact.primary}, replica ${xact.replica} ` +
        `(${share(xact.replica, xact.primary + xact.replica)} on the replica)`,
    );
  }

  await measure('reader only (site tree, spaces, sites, members)', 0);
  await measure('same token, one write in ten requests', 10);
} finally {
  await server.stop();
  await cluster.dispose();
}
