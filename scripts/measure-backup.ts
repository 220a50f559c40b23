/**
 * `npm run measure:backup`: the times of `cli backup` and `cli restore` on an embedded data directory
 * of about BACKUP_MB megabytes (default 100), made with bulk SQL inserts (copies of a space made
 * through the API: scale-seed.ts) in a temporary directory. It measures, with real processes as an
 * operator runs them:
 * - a backup through a running server (`cli backup` beside `npm start`'s server) while a probe sends
 *   `GET /healthz` (one `select 1`) every 10 ms: how long statements waited for the snapshot (the
 *   server logs it; `cp -r` of the directory for comparison), the probe's longest answer, and the
 *   server's resident memory before and at its peak;
 * - a backup with no server running (the CLI opens the directory itself);
 * - a restore of a backup into a new directory (with its key file), and a server's start on it.
 * Each is measured BACKUP_ROUNDS times (default 3). It prints medians and ranges; nothing is asserted.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/kernel/config.js';
import { LOCK_FILE, readHolder } from '../src/db/data-dir-lock.js';
import { createLogger } from '../src/kernel/logger.js';
import { startServer } from '../src/server.js';
import { runCliProcess, spawnServer, stopProcess, waitFor, type ServerProcess } from '../test/support/processes.js';
import { Seeder } from './scale-seed.js';

const targetMb = Number(process.env.BACKUP_MB ?? 100);
const rounds = Number(process.env.BACKUP_ROUNDS ?? 3);
const MB = 1024 * 1024;
const work = mkdtempSync(join(tmpdir(), 'dp-measure-backup-'));
const dataDir = join(work, 'data');
const ownerToken = `owner-${Date.now()}-measure-backup`;
const started = performance.now();
const log = (line: string) => console.error(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const sizeMb = (path: string) => Number(execFileSync('du', ['-sm', path], { encoding: 'utf8' }).split('\t')[0]);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const milliseconds = (ms: number) => `${ms.toFixed(0)} ms`;

/** The median of some measurements, with their range. */
function spread(values: number[], format: (value: number) => string): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  return sorted.length > 1 ? `${format(median)} (${format(sorted[0])}–${format(sorted.at(-1)!)})` : format(median);
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const at = performance.now();
  const result = await work();
  return { result, ms: performance.now() - at };
}

function succeeded(run: { code: number; stderr: string }, what: string) {
  if (run.code !== 0) throw new Error(`${what} failed (${run.code}):\n${run.stderr}`);
}

/** A server process on a data directory, once it serves and holds the directory. */
async function serve(dir: string): Promise<ServerProcess> {
  // At level info the server logs how long statements waited for the backup's snapshot.
  const server = await spawnServer({ DATA_DIR: dir, OWNER_TOKEN: ownerToken, JOB_POLL_MS: '0', LOG_LEVEL: 'info' });
  await waitFor(server, () => readHolder(join(dir, LOCK_FILE))?.url === server.url, 300_000);
  return server;
}

const residentMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

try {
  // ─── a data directory of about targetMb ──────────────────────────────────────────────────────────
  const seeding = await startServer(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', JOB_POLL_MS: '0', DATA_DIR: dataDir, OWNER_TOKEN: ownerToken }),
    {
      logger: createLogger('silent'),
      provision: true,
    },
  );
  const headers = { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' };
  const [organization] = (await (await fetch(`${seeding.url}/v1/orgs`, { headers })).json()).items;
  const template = await (
    await fetch(`${seeding.url}/v1/orgs/${organization.id}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Template' }) })
  ).json();
  // A sealed server secret, as any server in use has (the restore then needs the key).
  await fetch(`${seeding.url}/v1/orgs/${organization.id}/ping`, { method: 'POST', headers });
  const seeder = new Seeder(() => seeding.deps.orm.em.fork());
  let spaces = 0;
  while (sizeMb(dataDir) < targetMb) {
    await seeder.copySpaces(template.id, 10_000);
    spaces += 10_000;
    await seeder.sql('checkpoint');
  }
  await seeding.stop();
  // The seeding's writes reach the disk first: measured copies do not wait behind their writeback.
  execFileSync('sync');
  const directoryMb = sizeMb(dataDir);
  log(`seeded ${spaces} spaces: ${directoryMb} MB in ${dataDir}`);
  // The machine's own time to copy the directory, to compare the snapshot's with.
  const plainCopy = await timed(async () => execFileSync('cp', ['-r', dataDir, join(work, 'plain-copy')]));
  rmSync(join(work, 'plain-copy'), { recursive: true, force: true });

  // ─── backups through a running server, under a probe ─────────────────────────────────────────────
  const server = await serve(dataDir);
  const idleRss = residentMb(server.child.pid!);
  const viaServer: { ms: number; probeMs: number; peakRssMb: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    let probing = true;
    const probe = { longestMs: 0, peakRssMb: idleRss };
    const prober = (async () => {
      while (probing) {
        const at = performance.now();
        await fetch(`${server.url}/healthz`).then((res) => res.arrayBuffer());
        probe.longestMs = Math.max(probe.longestMs, performance.now() - at);
        probe.peakRssMb = Math.max(probe.peakRssMb, residentMb(server.child.pid!));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const backup = await timed(() => runCliProcess(['backup', join(work, `through-server-${round}.tar.gz`)], { DATA_DIR: dataDir }));
    probing = false;
    await prober;
    succeeded(backup.result, 'backup through the server');
    viaServer.push({ ms: backup.ms, probeMs: probe.longestMs, peakRssMb: probe.peakRssMb });
    log(`backup through the server: ${seconds(backup.ms)}`);
  }
  const heldMs = server
    .stdout()
    .split('\n')
    .filter((line) => line.includes('"heldMs"'))
    .map((line) => (JSON.parse(line) as { heldMs: number }).heldMs);
  await stopProcess(server, 'SIGTERM');

  // ─── backups with no server ──────────────────────────────────────────────────────────────────────
  const withoutServer: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const backup = await timed(() => runCliProcess(['backup', join(work, `direct-${round}.tar.gz`)], { DATA_DIR: dataDir }));
    succeeded(backup.result, 'backup without a server');
    withoutServer.push(backup.ms);
    log(`backup without a server: ${seconds(backup.ms)}`);
  }

  // ─── restores, and a start on what one restored ──────────────────────────────────────────────────
  const restores: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const restore = await timed(() =>
      runCliProcess(['restore', join(work, 'through-server-0.tar.gz'), join(work, `restored-${round}`), '--key-file', join(dataDir, 'secret.key')], {}),
    );
    succeeded(restore.result, 'restore');
    restores.push(restore.ms);
    log(`restore: ${seconds(restore.ms)}`);
  }
  const start = await timed(() => serve(join(work, 'restored-0')));
  const answered = (await fetch(`${start.result.url}/v1/orgs/${organization.id}/spaces?limit=1`, { headers })).status;
  await stopProcess(start.result, 'SIGTERM');

  const rows: [string, string][] = [
    ['data directory', `${directoryMb} MB (${spaces + 1} spaces with their revisions; du -sm)`],
    ['backup file', `${(statSync(join(work, 'through-server-0.tar.gz')).size / MB).toFixed(1)} MB (gzip level 1)`],
    [`median of ${rounds} (min–max)`, ''],
    [
      'cli backup through the running server',
      `${spread(
        viaServer.map((run) => run.ms),
        seconds,
      )} (process start included)`,
    ],
    [
      '  statements waited for the snapshot',
      `${spread(heldMs, milliseconds)} (the server's log: the copy under PGlite's locks; \`cp -r\` of the directory: ${milliseconds(plainCopy.ms)})`,
    ],
    [
      '  longest /healthz answer during it',
      `${spread(
        viaServer.map((run) => run.probeMs),
        milliseconds,
      )} (that wait and the checkpoint before it)`,
    ],
    [
      '  server resident memory',
      `${idleRss.toFixed(0)} MB idle, at most ${spread(
        viaServer.map((run) => run.peakRssMb),
        (mb) => `${mb.toFixed(0)} MB`,
      )} during a backup`,
    ],
    ['cli backup without a server', `${spread(withoutServer, seconds)} (process start included)`],
    ['cli restore (with --key-file)', `${spread(restores, seconds)} (process start included; checks, extracts, opens)`],
    ['server start on the restored directory', `${seconds(start.ms)} (until it serves; a spaces page answered ${answered})`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join('\n'));
} finally {
  rmSync(work, { recursive: true, force: true });
}
