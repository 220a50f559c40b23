/**
 * `npm run bench:tree`: the site tree against its anchors (issue 19). Seeds a published site of 20
 * sections × 25 site spaces (5 section groups) and, in an organization of its own, the deep document's
 * collection tree (bench-tree/deep-tree.ts: 30 collections, 100 spaces, 1,000 change requests, 5,500
 * comments) on the configured database (DATABASE_URL, or a fresh embedded one), then measures eight
 * targets with autocannon at fixed concurrency:
 *   a. baseline: the full tree from one hand-written json_agg SQL statement behind a bare express route
 *      (site-tree-baseline.ts);
 *   b. GraphQL full tree (SITE_TREE_QUERY: permissions, counts, URLs);
 *   c. GraphQL structural tree: plain columns only, site → sections → site spaces → space;
 *   d. PostGraphile 5 serving that structural tree from the same database and tables
 *      (bench-tree/postgraphile-server.ts; embedded, over the very PGlite the server holds);
 *   e. REST listSiteSections (GET …/sections?limit=1000);
 *   f. the GraphQL document REST runs for listSiteSections, sent to /graphql with REST's variables;
 *   g. GraphQL deep document (issue 34): organization → top-level collections → sub-collections →
 *      spaces with their change-request and open-comment counts, every list with its count;
 *   h. PostGraphile 5 serving that deep document from the same tables.
 * Before measuring it checks that a = b, c = d, e = f and g = h answer the same (bench-tree/answer-checks.ts)
 * and stops if not. Every target runs BENCH_SECONDS (default 10) in all, in BENCH_ROUNDS (default 5)
 * rounds that take turns with the other targets, after an unrecorded warm-up of BENCH_WARMUP seconds
 * (default 1) each; BENCH_CONNECTIONS (default 10) requests in flight.
 *
 * Autocannon runs in a child process, so the bench process holds only the servers (and, embedded, the
 * database). For each window the bench takes its own CPU time (server CPU) and, on a PostgreSQL server
 * on this machine, the CPU time of the database's backends (bench-tree/cpu-sampling.ts), and divides
 * by the requests sent: CPU per request stays comparable on a busy machine where requests per second
 * drift. It prints one row per target, then the ratios with their goals, over the whole run
 * and per round (min–max).
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import sql from 'sql-template-tag';
import { systemClock } from '../src/kernel/clock.js';
import { embeddedDatabase } from '../src/db/embedded-databases.js';
import { sqlObservers } from '../src/db/sql-observers.js';
import { execute, readRows } from '../src/db/statements.js';
import { createOrganization } from '../src/domain/organizations/index.js';
import { createApiToken, createUser } from '../src/domain/users/index.js';
import { newId } from '../src/kernel/ids.js';
import { checkAnswers } from './bench-tree/answer-checks.js';
import { startCpuSampler } from './bench-tree/cpu-sampling.js';
import { startLoadGenerator } from './bench-tree/load-generator.js';
import { startPostGraphile, type PostGraphileSource } from './bench-tree/postgraphile-server.js';
import { ratiosTable, targetsTable, type Measured, type Window } from './bench-tree/report.js';
import { benchTargets, type Target } from './bench-tree/targets.js';
import { DEEP_TREE_SIZE, describeDeepTree, seedDeepTree } from './bench-tree/deep-tree.js';
import { startBenchServer } from './bench-server.js';
import { seedSiteTree } from './site-tree.js';
import { baselineStatement } from './site-tree-baseline.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const warmUpSeconds = Number(process.env.BENCH_WARMUP ?? 1);

const { server, config, embeddedDir } = await startBenchServer('bench');
const em = server.deps.orm.em.fork();
const owner = await createUser(em, systemClock, { email: `bench-${newId().toLowerCase()}@example.com`, displayName: 'Bench' });
const { secret } = await createApiToken(em, systemClock, owner.id, 'bench');
const organization = await createOrganization(em, systemClock, owner.id, { title: 'Bench organization' });
const siteId = await seedSiteTree(em, organization.id, 20, 25, 5);
const deepOrganization = await createOrganization(em, systemClock, owner.id, { title: 'Bench deep organization' });
await seedDeepTree(server.deps.orm.em.fork(), deepOrganization.id, owner.id);
// Statistics for the planner, as autovacuum would gather them after such inserts: PGlite has no
// autovacuum (nor has a server where it is off), and without statistics the site tree's comment counts
// are planned as a nested loop over every comment the deep document's seed wrote.
await execute(em, sql`analyze`);

const baseline = express();
baseline.get('/tree/:id', async (req, res) => {
  const [row] = await readRows<{ tree: unknown }>(server.deps.orm.em.fork(), baselineStatement(req.params.id, config.publicUrl, owner.id));
  res.json(row.tree);
});
const baselineServer = baseline.listen(0, '127.0.0.1');
await new Promise((resolve) => baselineServer.once('listening', resolve));
const baselineUrl = `http://127.0.0.1:${(baselineServer.address() as AddressInfo).port}`;

const pglite = embeddedDatabase(server.deps.orm);
const source: PostGraphileSource = config.databaseUrl ? { url: config.databaseUrl, schema: config.databaseSchema } : { pglite: pglite! };
const postgraphile = await startPostGraphile(source);

const targets = benchTargets({
  serverUrl: server.url,
  baselineUrl,
  postgraphileUrl: postgraphile.url,
  organizationId: organization.id,
  siteId,
  deepOrganizationId: deepOrganization.id,
  token: secret,
});
const answers = await checkAnswers(targets);

async function statementsPerRequest(target: Target): Promise<number> {
  let count = 0;
  const observe = () => void (count += 1);
  sqlObservers.add(observe);
  try {
    const { url, method, headers, body } = target.request;
    const res = await fetch(url, { method, headers, body });
    if (res.status !== (target.request.expectStatus ?? 200)) throw new Error(`${target.name}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  } finally {
    sqlObservers.delete(observe);
  }
  return count;
}

const cpu = await startCpuSampler(config.databaseUrl);
const load = startLoadGenerator();

/**
 * One window: CPU sampled before the load starts and after it ends plus time for the requests cut short
 * at its end to finish (the server still answers them), so that every request sent is paid within it.
 */
async function measure(target: Target, duration: number): Promise<Window> {
  const before = await cpu.sample();
  const result = await load.run({ target: target.request, connections, seconds: duration });
  if (result.non2xx || result.errors) throw new Error(`${target.name}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  await sleep(Math.min(Math.max(2 * result.p99, 100), 5000));
  const after = await cpu.sample();
  return { ...result, cpu: cpu.spent(before, after) };
}

const database = config.databaseUrl
  ? `PostgreSQL server (database CPU ${cpu.measuresDatabase ? "from its backends' /proc" : 'n/a: not on this machine'})`
  : 'embedded (PGlite, in the bench process: its CPU is server CPU)';
console.log(
  `database: ${database}; 20 sections × 25 site spaces, 5 groups; deep document: ${describeDeepTree(DEEP_TREE_SIZE)}; ${connections} connections, ${seconds} s per target in ${rounds} interleaved rounds`,
);
console.log(
  "answers checked: a = b, c = d (sections compared in id order: PostGraphile gives position order, ours navigation order), e = f (nulls left out), g = h (PostGraphile's totalCount as the count, dates as ISO strings, no emoji as '')",
);
console.log('req/s: answers over the window; p50/p99: median of the rounds; CPU ms/req: CPU time of the windows over the requests sent in them');

const statements = new Map<Target, number>();
for (const target of targets) {
  await statementsPerRequest(target); // warm-up: compilation and first-use work are not per-request costs
  statements.set(target, await statementsPerRequest(target));
}
if (warmUpSeconds > 0) for (const target of targets) await measure(target, warmUpSeconds);
// Rounds interleave the targets, so that whatever else the machine does weighs on all of them alike.
const windows = new Map<Target, Window[]>(targets.map((target) => [target, []]));
for (let round = 0; round < rounds; round++) for (const target of targets) windows.get(target)!.push(await measure(target, seconds / rounds));

const measured: Measured[] = targets.map((target) => ({
  target,
  windows: windows.get(target)!,
  statements: statements.get(target),
  bytes: answers.get(target.key)!.bytes,
}));
console.log(`\n${targetsTable(measured)}\n`);
console.log(ratiosTable(new Map(measured.map((m) => [m.target.key, m])), cpu.measuresDatabase || !config.databaseUrl));

load.stop();
await cpu.stop();
await postgraphile.stop();
baselineServer.close();
await server.stop();
if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
