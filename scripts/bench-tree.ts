/**
 * `npm run bench:tree`: seeds a large site (20 sections × 25 site spaces, 5 groups) on the configured
 * database (DATABASE_URL, or a fresh embedded one), then measures with autocannon at fixed concurrency:
 *   - the nested GraphQL site-tree query,
 *   - the equivalent REST call (the site's sections with their site spaces and spaces),
 *   - a baseline: the same tree from one hand-written json_agg SQL query behind a bare express route
 *     (`site-tree-baseline.ts`; the run stops unless its answer equals the GraphQL query's).
 * Prints requests/s, p50/p99 latency and SQL statements per request, and the ratio to the baseline.
 * Each target runs for BENCH_SECONDS (default 10) in all, split into BENCH_ROUNDS (default 5) rounds that take
 * turns with the other targets. Environment also: BENCH_CONNECTIONS (default 10).
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import express from 'express';
import { systemClock } from '../src/clock.js';
import { startBenchServer } from './bench-server.js';
import { sqlObservers } from '../src/db/sql-observers.js';
import { readRows } from '../src/db/statements.js';
import { isDeepStrictEqual } from 'node:util';
import { createOrganization } from '../src/domain/organizations/service.js';
import { createApiToken, createUser } from '../src/domain/users/service.js';
import { newId } from '../src/ids.js';
import { seedSiteTree, SITE_TREE_QUERY } from './site-tree.js';
import { BASELINE_SQL } from './site-tree-baseline.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);


type Target = { name: string; url: string; method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string };

type Measured = { rps: number; p50: number; p99: number };

async function measure(target: Target, duration: number): Promise<Measured> {
  const result = await autocannon({
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections,
    duration,
  });
  if (result.non2xx || result.errors) throw new Error(`${target.name}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function statementsPerRequest(target: Target): Promise<number> {
  let count = 0;
  const observe = () => void (count += 1);
  sqlObservers.add(observe);
  try {
    const res = await fetch(target.url, { method: target.method, headers: target.headers, body: target.body });
    if (!res.ok) throw new Error(`${target.name}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  } finally {
    sqlObservers.delete(observe);
  }
  return count;
}

const { server, config, embeddedDir } = await startBenchServer('bench');
const em = server.deps.orm.em.fork();
const owner = await createUser(em, systemClock, { email: `bench-${newId().toLowerCase()}@example.com`, displayName: 'Bench' });
const { secret } = await createApiToken(em, systemClock, owner.id, 'bench');
const organization = await createOrganization(em, systemClock, owner.id, { title: 'Bench organization' });
const siteId = await seedSiteTree(em, organization.id, 20, 25, 5);

const baseline = express();
baseline.get('/tree/:id', async (req, res) => {
  const [row] = await readRows<{ tree: unknown }>(server.deps.orm.em.fork(), BASELINE_SQL, [req.params.id, config.publicUrl, owner.id]);
  res.json(row!.tree);
});
const baselineServer = baseline.listen(0, '127.0.0.1');
await new Promise((resolve) => baselineServer.once('listening', resolve));
const baselinePort = (baselineServer.address() as AddressInfo).port;

const auth = { authorization: `Bearer ${secret}` };
const targets: Target[] = [
  { name: 'baseline: one json_agg query', url: `http://127.0.0.1:${baselinePort}/tree/${siteId}`, method: 'GET' },
  {
    name: 'GraphQL site tree',
    url: `${server.url}/graphql`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ query: SITE_TREE_QUERY, variables: { id: siteId } }),
  },
  { name: 'REST sections (tree)', url: `${server.url}/v1/orgs/${organization.id}/sites/${siteId}/sections?limit=1000`, method: 'GET', headers: auth },
];

// The baseline must serve the very tree the GraphQL query answers, or the ratio would mean nothing.
const [graphqlAnswer, baselineAnswer] = await Promise.all([
  fetch(targets[1]!.url, { method: 'POST', headers: targets[1]!.headers, body: targets[1]!.body }).then((r) => r.json()),
  fetch(targets[0]!.url).then((r) => r.json()),
]);
if (!isDeepStrictEqual(graphqlAnswer.data?.site, baselineAnswer)) throw new Error('the baseline does not answer the same tree as the GraphQL query');

console.log(`database: ${config.databaseUrl ? 'PostgreSQL server' : 'embedded (PGlite)'}; 20 sections × 25 site spaces, 5 groups; ${connections} connections, ${seconds} s each in ${rounds} interleaved rounds`);
// Rounds interleave the targets, so that whatever else the machine does weighs on all of them alike.
const statements = new Map<Target, number>();
for (const target of targets) {
  await statementsPerRequest(target); // warm-up: compilation and first-use work are not per-request costs
  statements.set(target, await statementsPerRequest(target));
}
const results = new Map<Target, Measured[]>(targets.map((target) => [target, []]));
for (let round = 0; round < rounds; round++) for (const target of targets) results.get(target)!.push(await measure(target, seconds / rounds));
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rows: string[] = [];
let baselineRps = 0;
for (const target of targets) {
  const measured = results.get(target)!;
  const rps = measured.reduce((sum, m) => sum + m.rps, 0) / measured.length;
  const [p50, p99] = [median(measured.map((m) => m.p50)), median(measured.map((m) => m.p99))];
  if (!baselineRps) baselineRps = rps;
  rows.push(`${target.name.padEnd(30)} ${rps.toFixed(0).padStart(8)} req/s  p50 ${String(p50).padStart(5)} ms  p99 ${String(p99).padStart(5)} ms  ${String(statements.get(target)).padStart(3)} SQL/req  ${(rps / baselineRps).toFixed(2)}× baseline`);
}
console.log(rows.join('\n'));

baselineServer.close();
await server.stop();
if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
