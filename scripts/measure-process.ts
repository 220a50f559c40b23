/**
 * `npm run measure:process`: the server as a process, started the way `npm start` starts it (its command
 * from package.json, run by node in the repository), with its young-generation flag
 * (`--max-semi-space-size`) and without it. For each: first start (spawn → /healthz 200) on a fresh database and its
 * peak RSS, restart on the same data, idle RSS after start, RSS during and after a site-tree load
 * (BENCH_SECONDS, default 30, with 10 requests in flight), and CPU per request (/proc/<pid>/stat) for the
 * site tree and for two of the cheapest calls (GraphQL `{ viewer { id } }`, `GET /v1/user`). The servers
 * take turns in rounds (BENCH_ROUNDS, default 6), so that the machine's other work weighs on all alike.
 *
 * Embedded on a fresh DATA_DIR per server, or on DATABASE_URL's server: a fresh database per server,
 * made beside DATABASE_URL's and dropped at the end. MEASURE_COMMANDS='node … | node …' measures
 * these commands instead (for example two builds, before and after a change). Linux only (/proc).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { openOrm } from '../src/db/orm.js';
import { entities } from '../src/entities.js';
import type { Database } from '../src/kernel/database.js';
import { BENCH_SECRET_KEY } from './bench-secret-key.js';
import { MS_PER_TICK, processTicks } from './process-cpu.js';
import { seedSiteTree, SITE_TREE_QUERY } from './site-tree.js';

const ROOT = join(import.meta.dirname, '..');
/** Node's default young generation under a 1 GiB heap ceiling: 64 MB semi-spaces. */
const YOUNG_GENERATION_FLAG = /^--max-semi-space-size=\d+$/;
const NODE_DEFAULT_YOUNG_GENERATION = '--max-semi-space-size=64';
const OWNER_TOKEN = 'measure-process-owner-token-0123456789';
const seconds = Number(process.env.BENCH_SECONDS ?? 30);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const CONNECTIONS = 10;
/** How long a process is left alone before its idle RSS is read. */
const SETTLE_MS = 5000;
/** Seconds of each cheap call per server, in two rounds. */
const LIGHT_SECONDS = 10;

type Variant = { name: string; args: string[] };

/**
 * `npm start`'s command as node arguments, and the same with Node's default young generation instead of
 * the one it sets (or with 64 MB semi-spaces, when it sets none).
 */
function variants(): Variant[] {
  const words = (command: string) => {
    const [node, ...args] = command.trim().split(/\s+/);
    if (node !== 'node') throw new Error(`not a node command: ${command}`);
    return args;
  };
  if (process.env.MEASURE_COMMANDS) return process.env.MEASURE_COMMANDS.split('|').map((command) => ({ name: command.trim(), args: words(command) }));
  const start = words((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start);
  const young = start.find((arg) => YOUNG_GENERATION_FLAG.test(arg));
  const toggled = young ? start.filter((arg) => arg !== young) : [NODE_DEFAULT_YOUNG_GENERATION, ...start];
  const described = (args: string[]) => `npm start, ${args.find((arg) => YOUNG_GENERATION_FLAG.test(arg)) ?? 'no --max-semi-space-size'}`;
  return [start, toggled].map((args) => ({ name: described(args), args }));
}

/** Resident memory of a process in MB: now, and its peak so far. */
function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** CPU time the process (every thread) has used, in ms. */
function cpuMsOf(pid: number): number {
  return (processTicks(pid)?.ticks ?? NaN) * MS_PER_TICK;
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A fresh database for one server: a data directory, or a database beside DATABASE_URL's. */
async function freshDatabase(n: number): Promise<{ env: Record<string, string>; database: Database; dispose(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'dp-measure-process-'));
    return { env: { DATA_DIR: dataDir }, database: { dataDir }, dispose: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const url = new URL(serverUrl);
  const name = `${url.pathname.slice(1)}_measure_process_${n}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists "${name}"`);
  await admin(`create database "${name}"`);
  url.pathname = `/${name}`;
  return { env: { DATABASE_URL: url.href }, database: { url: url.href }, dispose: () => admin(`drop database if exists "${name}"`) };
}

type Running = { child: ChildProcess; url: string; stderr: () => string; exited: Promise<unknown> };

/** Starts the variant's command and resolves once /healthz answers 200, with the time that took. */
async function start(variant: Variant, env: Record<string, string>): Promise<{ running: Running; ms: number }> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, variant.args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SECRET_KEY: BENCH_SECRET_KEY,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      OWNER_TOKEN,
      LOG_LEVEL: 'warn',
      // A measurement's one token sends far more than a client's budget.
      RATE_LIMIT_READS: '0',
      RATE_LIMIT_WRITES: '0',
      RATE_LIMIT_INSIGHTS: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${variant.name} exited while starting:\n${stderr}`);
    const status = await fetch(`${url}/healthz`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) break;
    await sleep(25);
  }
  return { running: { child, url, stderr: () => stderr, exited }, ms: performance.now() - began };
}

async function stop(running: Running) {
  running.child.kill('SIGTERM');
  await running.exited;
}

type Load = { name: string; method: 'GET' | 'POST'; path: string; body?: string };

/** Runs `load` on one server for `duration` s: requests answered, CPU used, highest RSS seen. */
async function drive(running: Running, load: Load, duration: number) {
  const pid = running.child.pid!;
  const cpuBefore = cpuMsOf(pid);
  let peak = memoryOf(pid).rss;
  const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), 250);
  const result = await autocannon({
    url: `${running.url}${load.path}`,
    method: load.method,
    headers: { authorization: `Bearer ${OWNER_TOKEN}`, ...(load.body ? { 'content-type': 'application/json' } : {}) },
    body: load.body,
    connections: CONNECTIONS,
    duration,
  });
  clearInterval(sampler);
  if (result.non2xx || result.errors) throw new Error(`${load.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requests: result.requests.total, cpuMs: cpuMsOf(pid) - cpuBefore, peak: Math.max(peak, memoryOf(pid).rss) };
}

type Measured = {
  variant: Variant;
  firstStartMs: number;
  firstStartPeak: number;
  restartMs: number;
  idle: number;
  loadPeak: number;
  afterLoad: number;
  tree: { requests: number; cpuMs: number };
  light: Record<string, { requests: number; cpuMs: number }>;
};

const all = variants();
// The launcher builds when the sources changed; the build is not the start's time.
execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-outdated'], { cwd: ROOT, stdio: 'inherit' });
console.log(
  `database: ${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded (PGlite)'}; site tree 20 sections × 25 site spaces; ${CONNECTIONS} connections, ${seconds} s per server in ${rounds} interleaved rounds`,
);

const databases = await Promise.all(all.map((_, n) => freshDatabase(n)));
const servers: { running: Running; measured: Measured; siteId: string }[] = [];
try {
  for (const [n, variant] of all.entries()) {
    const { env, database } = databases[n];
    const first = await start(variant, env);
    const firstStartPeak = memoryOf(first.running.child.pid!).peak;
    const organizations = (await (await fetch(`${first.running.url}/v1/orgs`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } })).json()) as {
      items: { id: string }[];
    };
    await stop(first.running);
    // Seeded while the server is down: an embedded data directory belongs to one process.
    const orm = await openOrm(database, { entities });
    let siteId: string;
    try {
      siteId = await seedSiteTree(orm.em.fork(), organizations.items[0].id, 20, 25, 5);
    } finally {
      await orm.close();
    }
    const again = await start(variant, env);
    await sleep(SETTLE_MS);
    const idle = memoryOf(again.running.child.pid!).rss;
    const measured: Measured = {
      variant,
      firstStartMs: first.ms,
      firstStartPeak,
      restartMs: again.ms,
      idle,
      loadPeak: idle,
      afterLoad: 0,
      tree: { requests: 0, cpuMs: 0 },
      light: {},
    };
    servers.push({ running: again.running, measured, siteId });
    console.log(`${variant.name}: first start ${(first.ms / 1000).toFixed(1)} s, restart ${(again.ms / 1000).toFixed(1)} s, idle ${Math.round(idle)} MB`);
  }

  for (let round = 0; round < rounds; round++) {
    for (const { running, measured, siteId } of servers) {
      const tree: Load = { name: 'site tree', method: 'POST', path: '/graphql', body: JSON.stringify({ query: SITE_TREE_QUERY, variables: { id: siteId } }) };
      const done = await drive(running, tree, seconds / rounds);
      measured.tree.requests += done.requests;
      measured.tree.cpuMs += done.cpuMs;
      measured.loadPeak = Math.max(measured.loadPeak, done.peak);
    }
  }
  await sleep(SETTLE_MS);
  for (const { running, measured } of servers) measured.afterLoad = memoryOf(running.child.pid!).rss;

  const lightLoads: Load[] = [
    { name: '{ viewer { id } }', method: 'POST', path: '/graphql', body: JSON.stringify({ query: '{ viewer { id } }' }) },
    { name: 'GET /v1/user', method: 'GET', path: '/v1/user' },
  ];
  for (let round = 0; round < 2; round++) {
    for (const load of lightLoads) {
      for (const { running, measured } of servers) {
        const done = await drive(running, load, LIGHT_SECONDS / 2);
        const sum = (measured.light[load.name] ??= { requests: 0, cpuMs: 0 });
        sum.requests += done.requests;
        sum.cpuMs += done.cpuMs;
      }
    }
  }
} finally {
  await Promise.all(servers.map(({ running }) => stop(running)));
  await Promise.all(databases.map((database) => database.dispose()));
}

const mb = (value: number) => `${Math.round(value)} MB`;
const perRequest = ({ requests, cpuMs }: { requests: number; cpuMs: number }) => `${(cpuMs / requests).toFixed(2)} ms`;
const rows: [string, (m: Measured) => string][] = [
  ['first start (spawn → /healthz 200)', (m) => `${(m.firstStartMs / 1000).toFixed(1)} s`],
  ['peak RSS of the first start', (m) => mb(m.firstStartPeak)],
  ['restart on the same data', (m) => `${(m.restartMs / 1000).toFixed(1)} s`],
  [`idle RSS, ${SETTLE_MS / 1000} s after the restart`, (m) => mb(m.idle)],
  ['highest RSS during the site-tree load', (m) => mb(m.loadPeak)],
  [`RSS ${SETTLE_MS / 1000} s after the load`, (m) => mb(m.afterLoad)],
  ['site tree: requests/s', (m) => (m.tree.requests / seconds).toFixed(1)],
  ['site tree: CPU per request', (m) => perRequest(m.tree)],
  ...['{ viewer { id } }', 'GET /v1/user'].map((name): [string, (m: Measured) => string] => [`${name}: CPU per request`, (m) => perRequest(m.light[name])]),
];
const measured = servers.map(({ measured }) => measured);
console.log(`\n| | ${measured.map((m) => m.variant.name).join(' | ')} |\n|---|${measured.map(() => '---|').join('')}`);
for (const [label, cell] of rows) console.log(`| ${label} | ${measured.map(cell).join(' | ')} |`);
