import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw } from 'sql-template-tag';
import { requestVacuum } from '../../jobs/vacuum.js';
import { tableOf } from '../../db/statements.js';
import { deleteInSteps } from '../../db/delete-in-steps.js';
import { DomainEvent } from '../../events/entities.js';
import { enqueueUnlessPending, type JobHandler, type JobRun } from '../../jobs/queue.js';

/*
 * Retention of the audit log (AUDIT_RETENTION_DAYS): an hourly durable job deletes the domain events
 * older than the retention, in bounded steps (each its own short statement, through the occurred_at
 * index). An event still owed to webhooks (succeeded, not yet dispatched) stays, whatever its age:
 * retention never loses a delivery. Refused mutations are never dispatched, so they age out as they are.
 */

export const AUDIT_RETENTION_JOB = 'audit.retention';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const AUDIT_RETENTION_INTERVAL_MS = HOUR;
/** Events deleted per statement: a short transaction, whatever the backlog. */
const EVENTS_PER_STEP = 5_000;

/**
 * Deletes the events that occurred before `cutoff` and are no longer owed to anyone (dispatched to
 * webhooks, or never to be: outcome other than succeeded), EVENTS_PER_STEP at a time; answers how many.
 * Once `signal` is aborted (a job that lost its claim) it stops between steps.
 */
export async function purgeExpiredAuditEvents(em: EntityManager, cutoff: Date, signal?: AbortSignal): Promise<number> {
  const table = tableOf(em, DomainEvent);
  const step = sql`delete from ${table} where "id" = any(array(
    select e."id" from ${table} e where e."occurred_at" < ${cutoff} and (e."dispatched_at" is not null or e."outcome" <> 'succeeded')
    limit ${raw(String(EVENTS_PER_STEP))}))`;
  return deleteInSteps(em, step, EVENTS_PER_STEP, signal);
}

/** Schedules the next hourly run unless one is pending; with no retention (0 days), nothing. */
export async function scheduleAuditRetention(em: EntityManager, retentionDays: number, now: Date): Promise<void> {
  if (retentionDays <= 0) return;
  await enqueueUnlessPending(em, AUDIT_RETENTION_JOB, new Date(now.getTime() + AUDIT_RETENTION_INTERVAL_MS), now);
}

const auditRetentionJob: JobHandler = Object.assign(
  async (em: EntityManager, _payload: Record<string, unknown>, now: Date, run: JobRun) => {
    const days = run.config.auditRetentionDays;
    if (days <= 0) return;
    const deleted = await purgeExpiredAuditEvents(em, new Date(now.getTime() - days * DAY), run.signal);
    if (deleted) {
      run.logger.info({ deleted, retentionDays: days }, 'purged audit events past their retention');
      await requestVacuum(em, { now: () => now });
    }
    await scheduleAuditRetention(em, days, now);
  },
  { outsideTransaction: true },
);

export const auditRetentionJobHandlers = { [AUDIT_RETENTION_JOB]: auditRetentionJob };
