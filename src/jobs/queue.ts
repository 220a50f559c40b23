import { once } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../logger.js';
import { newId } from '../ids.js';
import { Job, type JobRow } from './entities.js';

/** What a job may use besides its database: the configuration and the logger. */
export type JobEnv = { config: Config; logger: Logger };

/**
 * A job handler. It must be idempotent: a job whose worker died is run again after its lease. It runs
 * in one transaction, unless it is marked `outsideTransaction`: a handler that awaits outside I/O (a
 * fetch) must not hold a transaction meanwhile (the embedded database has one connection), so it gets
 * a plain EntityManager and keeps each of its writes short.
 */
export type JobHandler = ((em: EntityManager, payload: Record<string, unknown>, now: Date, env?: JobEnv) => Promise<void>) & {
  outsideTransaction?: boolean;
};

const LEASE_MS = 5 * 60 * 1000;
const BATCH = 20;

/** Schedules a job within the caller's unit of work: it is stored with the change that needs it. */
export function enqueue(em: EntityManager, clock: Clock, kind: string, payload: Record<string, unknown>, runAt: Date = clock.now()): JobRow {
  return em.create(Job, { id: newId(), kind, payload, runAt, attempts: 0, lockedUntil: null, lastError: null, createdAt: clock.now() });
}

/** Arbitrary first key of the advisory locks under which instances schedule a job of a kind (second: its hash). */
const SCHEDULE_LOCK = 734_112_910;

/**
 * Schedules a job of `kind` (no payload) at `runAt` unless one is pending (stored and not claimed): at
 * most one pending at a time, also when instances schedule at once (they take turns on an advisory lock
 * held to the end of the transaction). With `earlier`, a pending one due after `runAt` is brought
 * forward to it. Runs in the caller's transaction if it is in one.
 */
export async function enqueueUnlessPending(em: EntityManager, kind: string, runAt: Date, now: Date, options: { earlier?: boolean } = {}): Promise<void> {
  const schedule = async (tx: EntityManager) => {
    const connection = tx.getConnection();
    const trx = tx.getTransactionContext();
    await connection.execute(`select pg_advisory_xact_lock(?, hashtext(?))`, [SCHEDULE_LOCK, kind], 'all', trx);
    if (options.earlier) {
      await connection.execute(`update "job" set "run_at" = ? where "kind" = ? and "locked_until" is null and "run_at" > ?`, [runAt, kind, runAt], 'run', trx);
    }
    await connection.execute(
      `insert into "job" ("id", "kind", "payload", "run_at", "attempts", "created_at")
       select ?, ?, '{}'::jsonb, ?::timestamptz, 0, ?::timestamptz
       where not exists (select 1 from "job" where "kind" = ? and "locked_until" is null)`,
      [newId(), kind, runAt.toISOString(), now.toISOString(), kind],
      'run',
      trx,
    );
  };
  await (em.isInTransaction() ? schedule(em) : em.transactional((tx) => schedule(tx as EntityManager)));
}

/** Claims due jobs with SKIP LOCKED so that several instances never run the same job at once. */
async function claimDueJobs(orm: Orm, now: Date): Promise<JobRow[]> {
  const em = orm.em.fork();
  const rows = await em.getConnection().execute<{ id: string }[]>(
    `update job set locked_until = ?, attempts = attempts + 1
     where id in (select id from job where run_at <= ? and (locked_until is null or locked_until <= ?)
                  order by run_at limit ? for update skip locked)
     returning id`,
    [new Date(now.getTime() + LEASE_MS), now, now, BATCH],
  );
  return rows.length ? em.find(Job, { id: { $in: rows.map((r) => r.id) } }, { orderBy: { runAt: 'asc' } }) : [];
}

/** Gives back claimed jobs that were not started: they run at the next poll, here or elsewhere, without waiting out a lease. */
async function releaseClaims(orm: Orm, jobs: JobRow[]): Promise<void> {
  await orm.em
    .fork()
    .getConnection()
    .execute(`update job set locked_until = null, attempts = attempts - 1 where id in (${jobs.map(() => '?').join(', ')})`, jobs.map((job) => job.id));
}

/**
 * Runs every job due at the clock's now and returns how many succeeded. A failing job is retried
 * later with exponential backoff; a finished job is deleted. Once `stop` is aborted no further job
 * starts (the job running finishes).
 */
export async function runDueJobs(orm: Orm, clock: Clock, handlers: Record<string, JobHandler>, env: JobEnv, stop?: AbortSignal): Promise<number> {
  const { logger } = env;
  const now = clock.now();
  let done = 0;
  const jobs = await claimDueJobs(orm, now);
  for (const [index, job] of jobs.entries()) {
    if (stop?.aborted) {
      await releaseClaims(orm, jobs.slice(index));
      break;
    }
    const em = orm.em.fork();
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
      if (handler.outsideTransaction) await handler(em, job.payload, now, env);
      else await em.transactional((tx) => handler(tx as EntityManager, job.payload, now, env));
      await em.nativeDelete(Job, { id: job.id });
      done += 1;
    } catch (err) {
      const retryAt = new Date(now.getTime() + Math.min(2 ** job.attempts * 1000, 60 * 60 * 1000));
      logger.error({ err, job: job.id, kind: job.kind }, 'job failed; will retry');
      await em.nativeUpdate(Job, { id: job.id }, { lockedUntil: null, runAt: retryAt, lastError: String(err) });
    }
  }
  return done;
}

export type JobWorker = { stop(deadline: AbortSignal): Promise<void> };

/**
 * Polls for due jobs until stopped. `stop` starts no further cycle nor job and waits for the job
 * running to finish, or for `deadline` (a job cut short runs again after its lease).
 */
export function startWorker(orm: Orm, clock: Clock, handlers: Record<string, JobHandler>, env: JobEnv, intervalMs: number): JobWorker {
  const stopping = new AbortController();
  let cycle: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (cycle) return;
    cycle = runDueJobs(orm, clock, handlers, env, stopping.signal)
      .then(
        () => undefined,
        (err) => env.logger.error({ err }, 'job worker cycle failed'),
      )
      .finally(() => {
        cycle = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop(deadline) {
      clearInterval(timer);
      stopping.abort();
      if (!cycle || deadline.aborted) return;
      await Promise.race([cycle, once(deadline, 'abort')]);
    },
  };
}
