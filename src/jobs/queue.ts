import { once } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import type { Clock } from '../kernel/clock.js';
import { embeddedDatabase } from '../db/embedded-databases.js';
import type { Orm } from '../kernel/database.js';
import { execute, executeReturning } from '../db/statements.js';
import { newId } from '../kernel/ids.js';
import { Job, type JobRow } from './entities.js';
import { JobLease, releaseClaimsOfDeadProcess } from './lease.js';

/** How long a stopping worker waits, past its deadline, for the job cut short to be given back. */
const GIVE_BACK_MS = 1000;

export type { JobEnv, JobHandler, JobOutcome, JobRun } from '../kernel/jobs.js';
import type { JobEnv, JobHandler, JobRun } from '../kernel/jobs.js';

/** Schedules a job within the caller's unit of work: it is stored with the change that needs it. */
export function enqueue(em: EntityManager, clock: Clock, kind: string, payload: Record<string, unknown>, runAt: Date = clock.now()): JobRow {
  return em.create(Job, { id: newId(), kind, payload, runAt, attempts: 0, lockedUntil: null, claim: null, lastError: null, createdAt: clock.now() });
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
    await executeReturning(tx, sql`select pg_advisory_xact_lock(${SCHEDULE_LOCK}, hashtext(${kind}))`);
    if (options.earlier) {
      await execute(tx, sql`update "job" set "run_at" = ${runAt} where "kind" = ${kind} and "locked_until" is null and "run_at" > ${runAt}`);
    }
    await execute(
      tx,
      sql`insert into "job" ("id", "kind", "payload", "run_at", "attempts", "created_at")
       select ${newId()}, ${kind}, '{}'::jsonb, ${runAt.toISOString()}::timestamptz, 0, ${now.toISOString()}::timestamptz
       where not exists (select 1 from "job" where "kind" = ${kind} and "locked_until" is null)`,
    );
  };
  await (em.isInTransaction() ? schedule(em) : em.transactional((tx) => schedule(tx)));
}

/**
 * Runs one claimed job: renews its lease while the handler runs, then deletes it, or on failure
 * schedules it again with exponential backoff. Answers whether it finished (false also when the run
 * lost its claim: its outcome is discarded, the run that took the job over records its own).
 */
async function runClaimed(orm: Orm, lease: JobLease, handlers: Record<string, JobHandler>, env: JobEnv, now: Date): Promise<boolean> {
  const { job } = lease;
  const { logger } = env;
  const em = orm.em.fork();
  const handler = handlers[job.kind];
  const completed = () => (env.onOutcome?.(job.kind, 'completed'), true);
  const run: JobRun = {
    ...env,
    signal: lease.signal,
    whileClaimed: (on, work) =>
      on.transactional(async (tx) => {
        await lease.hold(tx);
        return work(tx);
      }),
  };
  lease.startHeartbeat();
  try {
    if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
    if (handler.outsideTransaction) {
      await handler(em, job.payload, now, run);
      if (await lease.complete(em)) return completed();
    } else {
      await em.transactional(async (trx) => {
        const tx = trx;
        await lease.hold(tx);
        // From here the row lock holds the job: nobody can claim it until this transaction ends.
        lease.stopHeartbeat();
        await handler(tx, job.payload, now, run);
        await lease.complete(tx);
      });
      return completed();
    }
    logger.warn({ job: job.id, kind: job.kind }, 'job finished after another run had claimed it: this run is discarded');
    return false;
  } catch (err) {
    const retryAt = new Date(now.getTime() + Math.min(2 ** job.attempts * 1000, 60 * 60 * 1000));
    let recorded: boolean;
    try {
      recorded = await lease.fail(em, retryAt, err);
    } catch (failure) {
      env.onOutcome?.(job.kind, 'failed');
      logger.error({ err, failure, job: job.id, kind: job.kind }, 'job failed and its failure could not be recorded: it runs again after its lease');
      return false;
    }
    if (recorded) {
      env.onOutcome?.(job.kind, 'failed');
      logger.error({ err, job: job.id, kind: job.kind }, 'job failed; will retry');
    } else logger.warn({ err, job: job.id, kind: job.kind }, 'job run failed after it lost its claim: this run is discarded');
    return false;
  } finally {
    lease.stopHeartbeat();
  }
}

/**
 * Runs the jobs due at the clock's now, one claim at a time, until none is due, and returns how many
 * finished. Once `stop` is aborted no further job starts (the one running finishes); once `cutShort`
 * is aborted the one running is given back (its signal aborted).
 */
export async function runDueJobs(
  orm: Orm,
  clock: Clock,
  handlers: Record<string, JobHandler>,
  env: JobEnv,
  stop?: AbortSignal,
  cutShort?: AbortSignal,
): Promise<number> {
  const leaseMs = env.config.jobLeaseMs;
  let done = 0;
  while (!stop?.aborted) {
    const lease = await JobLease.claimNext(orm, clock, env.logger, leaseMs);
    if (!lease) break;
    if (stop?.aborted) {
      await lease.release({ started: false });
      break;
    }
    let givenBack: Promise<void> | undefined;
    const giveBack = () => {
      givenBack = lease
        .release({ started: true })
        .catch((err) => env.logger.warn({ err, job: lease.job.id }, 'job claim not given back: it is taken over after its lease'));
    };
    cutShort?.addEventListener('abort', giveBack, { once: true });
    try {
      if (await runClaimed(orm, lease, handlers, env, clock.now())) done += 1;
    } finally {
      cutShort?.removeEventListener('abort', giveBack);
      await givenBack;
    }
  }
  return done;
}

export type JobWorker = { stop(deadline: AbortSignal): Promise<void> };

/**
 * Looks for due jobs every `intervalMs` and runs them one after another while any is due. `stop`
 * starts no further job and waits for the one running to finish, or for `deadline`: then that one is
 * given back (its signal aborted) to be taken at once by another instance or the next start.
 */
export function startWorker(orm: Orm, clock: Clock, handlers: Record<string, JobHandler>, env: JobEnv, intervalMs: number): JobWorker {
  const stopping = new AbortController();
  const deadlinePassed = new AbortController();
  let cycle: Promise<void> | undefined;
  let ready: Promise<unknown> = Promise.resolve();
  if (embeddedDatabase(orm)) {
    ready = releaseClaimsOfDeadProcess(orm).then(
      (released) => released && env.logger.info({ released }, 'gave back the jobs claimed by the previous process'),
      (err) => env.logger.warn({ err }, 'claims of the previous process not given back: they are taken after their lease'),
    );
  }
  const timer = setInterval(() => {
    if (cycle) return;
    cycle = ready
      .then(() => runDueJobs(orm, clock, handlers, env, stopping.signal, deadlinePassed.signal))
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
      if (!cycle) return;
      if (!deadline.aborted) await Promise.race([cycle, once(deadline, 'abort')]);
      if (!cycle) return;
      deadlinePassed.abort();
      // Giving back is one short statement; the database closes right after.
      await Promise.race([cycle, new Promise((resolve) => setTimeout(resolve, GIVE_BACK_MS).unref())]);
    },
  };
}
