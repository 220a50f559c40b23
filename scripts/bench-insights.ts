/**
 * `npm run bench:insights`: ingests BENCH_EVENTS (default 1,000,000) visitor events spread over the last
 * year into one site through the REST operation, in batches of the largest accepted size with
 * BENCH_CONCURRENCY requests in flight (default 4), on the configured database (DATABASE_URL, or a fresh
 * embedded one). As a baseline it loads the same rows with COPY straight into the events table, for a
 * second site, in BENCH_ROUNDS rounds (default 8) alternating with the API's over slices of the same
 * batches. Both sides prepare their input before their clock starts: the baseline its COPY text, the
 * API's load generator (a thread of its own) its request bodies. Then it runs the job that rolls up
 * the site's raw rows into hourly and daily rollups (timed and printed: it is deferred work of ingestion), and
 * typical aggregates BENCH_RUNS times each (default 30), printing p50/p99 and how long /healthz waited
 * at most while each ran.
 */
import { rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { Readable } from 'node:stream';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { systemClock } from '../src/kernel/clock.js';
import { startBenchServer } from './bench-server.js';
import { embeddedDatabase } from '../src/db/embedded-databases.js';
import { BatchEncoder, EVENT_COLUMN_LIST } from '../src/domain/insights/index.js';
import { validateEvent } from '../src/domain/insights/index.js';
import { rollUpSite } from '../src/domain/insights/index.js';
import { executeOn, kyselyOf } from '../src/db/statements.js';
import sql, { raw } from 'sql-template-tag';
import { ROLLUP_TABLES } from '../src/domain/insights/index.js';
import { createOrganization } from '../src/domain/organizations/index.js';
import { createApiToken, createUser } from '../src/domain/users/index.js';
import { newId } from '../src/kernel/ids.js';
import { events } from './insights-traffic.js';

const total = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const runs = Number(process.env.BENCH_RUNS ?? 30);
const rounds = Number(process.env.BENCH_ROUNDS ?? 8);

const { server, config, embeddedDir } = await startBenchServer('bench-insights');
const batch = config.insightsMaxBatch;
// The embedded database blocks the event loop while it loads the baseline: idle keep-alive sockets
// must not be closed under the client meanwhile.
server.server.keepAliveTimeout = 10 * 60_000;
const em = server.deps.orm.em.fork();
const owner = await createUser(em, systemClock, { email: `bench-${newId().toLowerCase()}@example.com`, displayName: 'Bench' });
const { secret } = await createApiToken(em, systemClock, owner.id, 'bench');
const organization = await createOrganization(em, systemClock, owner.id, { title: 'Bench organization' });
const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

/** A site publishing one space, and the ids its events' locations may name. */
async function newSite(title: string) {
  const space = await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Guide' });
  const site = await call('POST', `/v1/orgs/${organization.id}/sites`, { title, spaces: [space.id] });
  const siteSpaces = await call('GET', `/v1/orgs/${organization.id}/sites/${site.id}/site-spaces`);
  return { id: site.id as string, organization: organization.id, space: space.id as string, siteSpace: siteSpaces.items[0].id as string };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

// ─── ingestion through the API and the COPY baseline, in interleaved rounds ─────────────────────────

const end = Date.now();
const apiSite = await newSite('Bench site');
const copySite = await newSite('COPY baseline site');
const batches = Math.ceil(total / batch);

// The load generator: a worker thread (which does not inherit tsx's loader: a small module registers
// it, then loads the generator). It makes every request body first, then sends the batches of a round
// on each `go`.
const bootstrap = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
  register();
  await import(${JSON.stringify(new URL('./insights-ingest-worker.ts', import.meta.url).href)});`;
const generator = new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), {
  workerData: { url: server.url, token: secret, site: apiSite, total, batch, concurrency, end },
});
type GeneratorMessage = { ready?: boolean; bytes?: number; sent?: number; done?: boolean };
const fromGenerator = () =>
  new Promise<GeneratorMessage>((resolve, reject) => {
    const onMessage = (message: GeneratorMessage) => {
      generator.off('error', onError);
      resolve(message);
    };
    const onError = (error: Error) => {
      generator.off('message', onMessage);
      reject(error);
    };
    generator.once('message', onMessage);
    generator.once('error', onError);
  });
const { bytes: requestBytes = 0 } = await fromGenerator();

// The baseline's COPY text, batch by batch, made before any clock starts.
const copyBatches: string[] = [];
for (let from = 0; from < total; from += batch) {
  const encoder = new BatchEncoder(copySite);
  events(copySite, from, Math.min(total, from + batch), total, end).forEach((event, i) => encoder.add(validateEvent(event, i), Date.parse(event.timestamp)));
  copyBatches.push(encoder.finish().events);
}
const copySql = `copy insight_event (${EVENT_COLUMN_LIST.map((c) => `"${c}"`).join(', ')}) from stdin`;
const pglite = embeddedDatabase(server.deps.orm);

async function copyRound(from: number, to: number) {
  const texts = copyBatches.slice(from, to);
  if (pglite) {
    // PGlite reads COPY input from a blob; the rows go in one statement per batch of text.
    for (const text of texts) await pglite.query(copySql.replace('from stdin', `from '/dev/blob'`), [], { blob: new Blob([text]) });
    return;
  }
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  if (config.databaseSchema) await client.query(`set search_path to "${config.databaseSchema}"`);
  await pipeline(Readable.from(texts), client.query(copyStreams.from(copySql)));
  await client.end();
}

/**
 * Each side starts from a checkpoint, as pgbench starts its runs: a checkpoint that falls within one
 * side's time (WAL reaches max_wal_size every few hundred thousand rows) would slow that side alone,
 * with the pages it then writes whole into the WAL. Skipped where the role may not checkpoint.
 */
async function checkpoint() {
  if (pglite) return;
  await executeOn(kyselyOf(em), sql`checkpoint`).catch(() => undefined);
}

// Rounds alternate the two sides over slices of the same batches, so that the machine's speed, which
// drifts on a shared host, weighs on both alike.
let apiSeconds = 0;
let copySeconds = 0;
// What another request waits meanwhile: /healthz, every 50 ms while the API rounds run.
const healthzWaits: number[] = [];
for (let round = 0; round < rounds; round++) {
  const from = Math.floor((round * batches) / rounds);
  const to = Math.floor(((round + 1) * batches) / rounds);
  await checkpoint();
  let began = performance.now();
  generator.postMessage({ from, to });
  let ingesting = true;
  const probe = (async () => {
    while (ingesting) {
      const at = performance.now();
      await fetch(`${server.url}/healthz`).then((res) => res.arrayBuffer());
      healthzWaits.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  for (let message = await fromGenerator(); !message.done; message = await fromGenerator()) {
    if (message.sent) process.stdout.write(`  ${message.sent.toLocaleString('en')} events\r`);
  }
  apiSeconds += (performance.now() - began) / 1000;
  ingesting = false;
  await probe;
  await checkpoint();
  began = performance.now();
  await copyRound(from, to);
  copySeconds += (performance.now() - began) / 1000;
}
await generator.terminate();

// ─── the deferred half: rolling up the raw rows (the job that runs as hours end) ────────────────────

const db = kyselyOf(em);
const rollupRows = async () => {
  let rows = 0;
  for (const table of ROLLUP_TABLES)
    rows += (await executeOn<{ count: number }>(db, sql`select count(*)::int as count from ${raw(`"${table}"`)} where site_id = ${apiSite.id}`))[0].count;
  return rows;
};
const rollupBegan = performance.now();
await rollUpSite(em, apiSite.id, new Date());
const rollupSeconds = (performance.now() - rollupBegan) / 1000;
const rollupRowCount = await rollupRows();

// ─── aggregates ─────────────────────────────────────────────────────────────────────────────────────

const AGGREGATES: [string, Record<string, unknown>][] = [
  [
    'page views per day, last year',
    {
      select: [{ column: 'datetime', interval: 'day' }, { column: 'eventsCount' }],
      where: [{ column: 'eventType', values: ['page_view'] }],
      range: 'lastYear',
    },
  ],
  ['top pages, last month', { groupBy: [{ column: 'page' }], order: { by: { column: 'eventsCount' }, direction: 'desc' }, range: 'last30Days', limit: 10 }],
  ['visitors by browser, last week', { select: [{ column: 'visitorBrowser' }, { column: 'visitorsCount' }], range: 'last7Days' }],
  ['visitors by country, last week', { select: [{ column: 'visitorGeoCountry' }, { column: 'visitorsCount' }], range: 'last7Days' }],
  ['events by browser, last year', { groupBy: [{ column: 'visitorBrowser' }], range: 'lastYear' }],
  [
    'filtered count: mobile page views, 3 months',
    {
      where: [
        { column: 'eventType', values: ['page_view'] },
        { column: 'visitorDevice', values: ['mobile'] },
      ],
      range: 'last3Months',
    },
  ],
  [
    'visitors and sessions per day, last 30 days',
    { select: [{ column: 'datetime', interval: 'day' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }], range: 'last30Days' },
  ],
  // The worst case: distinct visitors over every raw row of the year (no rollup can answer it).
  ['visitors by browser, last year (all raw rows)', { select: [{ column: 'visitorBrowser' }, { column: 'visitorsCount' }], range: 'lastYear' }],
];

/** Longest wait of /healthz, polled back to back while `work` runs: how long other requests stall. */
async function longestStall(work: () => Promise<void>): Promise<number> {
  let running = true;
  let longest = 0;
  const poll = (async () => {
    while (running) {
      const at = performance.now();
      await fetch(`${server.url}/healthz`).then((res) => res.arrayBuffer());
      longest = Math.max(longest, performance.now() - at);
    }
  })();
  await work();
  running = false;
  await poll;
  return longest;
}

const database = config.databaseUrl ? 'PostgreSQL server' : 'embedded (PGlite)';
console.log(`database: ${database}; ${total.toLocaleString('en')} events per site in batches of ${batch}, ${concurrency} requests in flight`);
console.log(
  `ingest through POST …/insights/events: ${(total / apiSeconds).toFixed(0).padStart(8)} events/s  (${apiSeconds.toFixed(1)} s, ${(requestBytes / total).toFixed(0)} bytes of JSON per event; rollups by the job below)`,
);
console.log(`baseline COPY into the table:         ${(total / copySeconds).toFixed(0).padStart(8)} rows/s    (${copySeconds.toFixed(1)} s, no rollups)`);
console.log(`API / COPY: ${(copySeconds / apiSeconds).toFixed(2)}`);
healthzWaits.sort((a, b) => a - b);
console.log(
  `/healthz meanwhile (every 50 ms):       p50 ${percentile(healthzWaits, 50).toFixed(1)} ms, p99 ${percentile(healthzWaits, 99).toFixed(1)} ms, longest ${healthzWaits.at(-1)!.toFixed(1)} ms (${config.insightsWorkers} batch worker threads)`,
);
console.log(
  `roll-up job afterwards:               ${rollupSeconds.toFixed(1)} s (${rollupRowCount.toLocaleString('en')} hourly and daily rollup rows); ingest + roll-up: ${(total / (apiSeconds + rollupSeconds)).toFixed(0)} events/s`,
);
console.log(`aggregates over ${(2 * total).toLocaleString('en')} stored events (${runs} runs each):`);
const aggregatePath = `/v1/orgs/${organization.id}/sites/${apiSite.id}/insights/events/aggregate`;
for (const [name, body] of AGGREGATES) {
  await call('POST', aggregatePath, body); // warm-up
  const times: number[] = [];
  const stall = await longestStall(async () => {
    for (let i = 0; i < runs; i++) {
      const at = performance.now();
      await call('POST', aggregatePath, body);
      times.push(performance.now() - at);
    }
  });
  times.sort((a, b) => a - b);
  console.log(
    `  ${name.padEnd(46)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(times, 99).toFixed(1).padStart(7)} ms  longest /healthz wait ${stall.toFixed(1).padStart(7)} ms`,
  );
}
await server.stop();
if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
