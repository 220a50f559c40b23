import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueUnlessPending, type JobHandler, type JobRun } from '../../jobs/queue.js';
import { requestVacuum } from '../../jobs/vacuum.js';
import { purgeExpiredRecords } from './records.js';

/*
 * The purge of idempotency records past their 24 hours: an hourly durable job (one pending run at a
 * time, whatever the number of instances). An expired record is never replayed, purged or not: the
 * purge only gives the space back.
 */

export const IDEMPOTENCY_PURGE_JOB = 'idempotency.purge';
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 3_600_000;

/** Schedules the next hourly run unless one is pending. */
export async function scheduleIdempotencyPurge(em: EntityManager, now: Date): Promise<void> {
  await enqueueUnlessPending(em, IDEMPOTENCY_PURGE_JOB, new Date(now.getTime() + IDEMPOTENCY_PURGE_INTERVAL_MS), now);
}

const idempotencyPurgeJob: JobHandler = Object.assign(
  async (em: EntityManager, _payload: Record<string, unknown>, now: Date, run: JobRun) => {
    const deleted = await purgeExpiredRecords(em, now, run.signal);
    if (deleted) {
      run.logger.info({ deleted }, 'purged expired idempotency keys');
      await requestVacuum(em, { now: () => now });
    }
    await scheduleIdempotencyPurge(em, now);
  },
  { outsideTransaction: true },
);

export const idempotencyJobHandlers = { [IDEMPOTENCY_PURGE_JOB]: idempotencyPurgeJob };
