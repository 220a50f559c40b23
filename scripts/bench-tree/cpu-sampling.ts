import pg from 'pg';
import { MS_PER_TICK, processTicks } from '../process-cpu.js';

/** CPU time used so far: the bench process's in ms, and the database backends' in clock ticks by pid (null: not seen). */
export type CpuSample = { server: number; databaseTicks: Map<number, number> | null };

/** CPU time a window took, in ms: `database` is null when it cannot be seen from here (embedded: it is in `server`). */
export type CpuSpent = { server: number; database: number | null };

// '' is a URL without a host: a Unix socket, so this machine.
const LOCAL_HOSTS = new Set(['', 'localhost', '127.0.0.1', '::1', '[::1]']);
/** utime + stime of a process in clock ticks, if it is a PostgreSQL process this machine shows. */
function postgresTicks(pid: number): number | undefined {
  const process = processTicks(pid);
  return process?.command === 'postgres' ? process.ticks : undefined;
}

/**
 * Samples CPU time for measurement windows. Server: `process.cpuUsage()` of this process, which holds
 * every server of the bench (and PGlite, when embedded) while the load generator runs in a child.
 * Database, for a PostgreSQL server on this machine: utime + stime from /proc/<pid>/stat of the
 * `postgres` processes serving the bench's database (pg_stat_activity), so that other databases'
 * work on a shared server does not count; the sampling connection itself is left out. The server
 * counts as on this machine when its host is local and the sampling connection's own backend shows
 * in /proc as a `postgres` process (not so for a container's, for example).
 */
export async function startCpuSampler(databaseUrl: string | undefined) {
  let client: pg.Client | undefined;
  if (databaseUrl !== undefined && LOCAL_HOSTS.has(new URL(databaseUrl).hostname)) {
    client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    if (postgresTicks(rows[0].pid) === undefined) {
      await client.end();
      client = undefined;
    }
  }

  async function databaseTicks(db: pg.Client): Promise<Map<number, number>> {
    const { rows } = await db.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    const ticks = new Map<number, number>();
    for (const { pid } of rows) {
      const spent = postgresTicks(pid);
      if (spent !== undefined) ticks.set(pid, spent);
    }
    return ticks;
  }

  return {
    /** Whether database CPU is measured: a PostgreSQL server whose processes this machine shows. */
    measuresDatabase: client !== undefined,
    async sample(): Promise<CpuSample> {
      const { user, system } = process.cpuUsage();
      return { server: (user + system) / 1000, databaseTicks: client ? await databaseTicks(client) : null };
    },
    /** CPU time between two samples; a backend that started in between counts from zero. */
    spent(before: CpuSample, after: CpuSample): CpuSpent {
      let database: number | null = null;
      if (before.databaseTicks && after.databaseTicks) {
        database = 0;
        for (const [pid, ticks] of after.databaseTicks) database += (ticks - (before.databaseTicks.get(pid) ?? 0)) * MS_PER_TICK;
      }
      return { server: after.server - before.server, database };
    },
    async stop() {
      await client?.end();
    },
  };
}
