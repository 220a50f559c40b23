/**
 * A PostgreSQL primary and its streaming replica, made on the fly from the machine's PostgreSQL
 * binaries (Debian's /usr/lib/postgresql/<version>/bin) in a temporary directory, on free ports: the
 * machine's own cluster is never touched. `initdb`, `host replication all 127.0.0.1/32 trust`,
 * `pg_basebackup -R` into a second directory, both started with `pg_ctl`. Run as root, the binaries
 * run as the `postgres` user (PostgreSQL refuses root), which then owns the directories.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './processes.js';

const run = promisify(execFile);

/** The newest PostgreSQL binaries installed the Debian way, or undefined (replica tests then skip). */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'pg_basebackup')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : undefined;
}

/** Why replica tests skip here, or undefined when they can run. */
export const replicaSkipReason = (): string | undefined =>
  postgresBinaries() ? undefined : 'no PostgreSQL server binaries under /usr/lib/postgresql/<version>/bin: replica tests skipped';

export type ReplicatedCluster = {
  /** postgres://… of the primary's `postgres` database, and of the replica's. */
  primaryUrl: string;
  replicaUrl: string;
  /** Delays the replica's applying of commits by `ms` (0: none), at once (`recovery_min_apply_delay`). */
  delayReplica(ms: number): Promise<void>;
  /** Stops the replica (fast shutdown: its sessions end), and starts it again. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /**
   * Freezes the replica (SIGSTOP to its postmaster and every process it started): its connections stay
   * open and answer nothing, as a hung server or a network black hole; `resumeReplica` (SIGCONT) thaws it.
   */
  pauseReplica(): Promise<void>;
  resumeReplica(): Promise<void>;
  /** A statement on the primary or on the replica. */
  onPrimary<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  onReplica<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** Waits until the replica has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  dispose(): Promise<void>;
};

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary (as `postgres` when this process is root). */
async function binary(bin: string, name: string, args: string[]) {
  const [command, all] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, name), ...args]] : [join(bin, name), args];
  return run(command, all, { timeout: 60_000 });
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values?: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export async function startReplicatedCluster(): Promise<ReplicatedCluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(replicaSkipReason());
  const root = mkdtempSync(join(tmpdir(), 'replicas-'));
  if (asRoot) chownSync(root, pgIds().uid, pgIds().gid);
  const [primaryDir, replicaDir] = [join(root, 'primary'), join(root, 'replica')];
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const common = ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${root}`, '-c', 'fsync=off', '-c', 'max_connections=100'];
  const options = (port: number, extra: string[] = []) => ['-o', [...common, '-c', `port=${port}`, ...extra].join(' ')];
  await binary(bin, 'initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  appendFileSync(join(primaryDir, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 trust\n');
  const primaryStart = [
    '-D',
    primaryDir,
    '-l',
    join(root, 'primary.log'),
    '-w',
    ...options(primaryPort, ['-c', 'wal_level=replica', '-c', 'max_wal_senders=5']),
  ];
  await binary(bin, 'pg_ctl', ['start', ...primaryStart]);
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  await binary(bin, 'pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '--no-sync']);
  const replicaStart = ['-D', replicaDir, '-l', join(root, 'replica.log'), '-w', ...options(replicaPort, ['-c', 'hot_standby=on'])];
  const startReplica = async () => void (await binary(bin, 'pg_ctl', ['start', ...replicaStart]));
  await startReplica();
  let replicaRunning = true;
  let paused: number[] = [];
  const stop = (pid: number) => {
    process.kill(pid, 'SIGSTOP');
    paused.push(pid);
  };
  const resume = () => {
    for (const pid of paused.reverse()) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Gone meanwhile.
      }
    }
    paused = [];
  };

  const cluster: ReplicatedCluster = {
    primaryUrl,
    replicaUrl,
    async delayReplica(ms) {
      await query(replicaUrl, `alter system set recovery_min_apply_delay = '${Math.max(0, Math.floor(ms))}ms'`);
      await query(replicaUrl, 'select pg_reload_conf()');
    },
    async stopReplica() {
      await binary(bin, 'pg_ctl', ['stop', '-D', replicaDir, '-m', 'fast', '-w']);
      replicaRunning = false;
    },
    async startReplica() {
      await startReplica();
      replicaRunning = true;
    },
    async pauseReplica() {
      // The postmaster (first line of postmaster.pid) first, so that it starts no process after its
      // children are listed: the backends, the startup and WAL receiver processes.
      const postmaster = Number(readFileSync(join(replicaDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      stop(postmaster);
      const { stdout } = await run('pgrep', ['-P', String(postmaster)]);
      for (const pid of stdout.split('\n').filter(Boolean)) stop(Number(pid));
    },
    resumeReplica: () => Promise.resolve(resume()),
    onPrimary: (text, values) => query(primaryUrl, text, values),
    onReplica: (text, values) => query(replicaUrl, text, values),
    async caughtUp() {
      const [{ lsn }] = await query<{ lsn: string }>(primaryUrl, 'select pg_current_wal_lsn()::text as lsn');
      for (let i = 0; i < 600; i++) {
        const [{ done }] = await query<{ done: boolean }>(replicaUrl, 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [lsn]);
        if (done) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the replica did not catch up within 30 s');
    },
    async dispose() {
      resume();
      if (replicaRunning) await binary(bin, 'pg_ctl', ['stop', '-D', replicaDir, '-m', 'immediate', '-w']).catch(() => undefined);
      await binary(bin, 'pg_ctl', ['stop', '-D', primaryDir, '-m', 'immediate', '-w']).catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
  return cluster;
}

let ids: { uid: number; gid: number } | undefined;
/** The `postgres` user's ids (from /etc/passwd). */
function pgIds(): { uid: number; gid: number } {
  if (ids) return ids;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user to run the PostgreSQL binaries as');
  const [, , uid, gid] = line.split(':');
  return (ids = { uid: Number(uid), gid: Number(gid) });
}
