import { Gauge } from 'prom-client';
import sql from 'sql-template-tag';
import type { Clock } from '../kernel/clock.js';
import type { Orm } from '../kernel/database.js';
import { readRows } from '../db/statements.js';
import type { Logger } from '../kernel/logger.js';
import { PREFIX, type ServerMetrics } from './registry.js';

/**
 * The durable job queue as it stands, by kind, in one statement. The table holds only jobs not
 * finished (a job's row is deleted as it completes), so the statement reads the backlog, never the
 * history. A job is running while a live lease holds it, else due once its time has come, else
 * scheduled. Times are the server's clock's.
 */
const queueStatement = (now: Date) => sql`
  select "kind",
    count(*) filter (where "locked_until" > "now") as "running",
    count(*) filter (where "free" and "run_at" <= "now") as "due",
    count(*) filter (where "free" and "run_at" > "now") as "scheduled",
    extract(epoch from "now" - min("run_at") filter (where "free" and "run_at" <= "now"))::float8 as "oldestDue"
  from (select "kind", "run_at", "locked_until", "now", ("locked_until" is null or "locked_until" <= "now") as "free"
        from "job", (select ${now}::timestamptz as "now") as "clock") as "jobs"
  group by "kind", "now"`;

type QueueRow = { kind: string; running: string | number; due: string | number; scheduled: string | number; oldestDue: number | null };

const STATES = ['due', 'scheduled', 'running'] as const;

/**
 * The queue's gauges, read at scrape time (one statement per scrape, shared by both gauges). Every
 * known kind is reported (0 when it has no job), so that a kind's series does not vanish when its queue
 * empties. The queue is the database's: every instance on it reports the same figures.
 */
export function watchJobQueue(metrics: ServerMetrics, orm: Orm, clock: Clock, kinds: readonly string[], logger: Logger): void {
  let reading: Promise<QueueRow[] | undefined> | undefined;
  /** The rows of the scrape in progress: the first gauge collected reads them, the other reuses them. */
  const rows = () =>
    (reading ??= readRows<QueueRow>(orm.em.fork(), queueStatement(clock.now()))
      .catch((err) => {
        logger.warn({ err }, 'metrics: the job queue could not be read');
        return undefined;
      })
      .finally(() => (reading = undefined)));
  const registers = [metrics.registry];

  new Gauge({
    name: `${PREFIX}job_queue_depth`,
    help: 'Durable jobs not finished, by kind and state (due: waiting for a worker; scheduled: for their time; running: claimed)',
    labelNames: ['kind', 'state'] as const,
    registers,
    async collect() {
      const read = await rows();
      this.reset();
      if (!read) return;
      for (const kind of kinds) for (const state of STATES) this.set({ kind, state }, 0);
      for (const row of read) for (const state of STATES) this.set({ kind: row.kind, state }, Number(row[state]));
    },
  });
  new Gauge({
    name: `${PREFIX}job_oldest_due_age_seconds`,
    help: 'How long the oldest due job of a kind has waited past its time (0 when none is due)',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      const read = await rows();
      this.reset();
      if (!read) return;
      for (const kind of kinds) this.set({ kind }, 0);
      for (const row of read) this.set({ kind: row.kind }, Math.max(0, row.oldestDue ?? 0));
    },
  });
}
