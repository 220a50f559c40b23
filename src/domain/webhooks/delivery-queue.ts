import type { EntityManager } from '@mikro-orm/postgresql';
import { execute, executeReturning } from '../../db/statements.js';
import { newId } from '../../kernel/ids.js';

/** The job that delivers an endpoint's pending deliveries, oldest first (delivery.ts). */
export const DELIVER_JOB = 'webhooks.deliver';

/** Arbitrary first key of the advisory locks under which an endpoint's delivery job is scheduled (second: its id's hash). */
const DELIVERY_LOCK = 734_112_920;

/**
 * Makes sure the endpoint has its delivery job, at most one at a time whether waiting or running (so
 * its deliveries go out one after another, in order): schedules one at `runAt` unless one exists. With
 * `earlier`, a waiting one due later (a backoff) is brought forward. Runs in the caller's transaction.
 */
export async function scheduleDelivery(tx: EntityManager, webhookId: string, runAt: Date, options: { earlier?: boolean } = {}): Promise<void> {
  await executeReturning(tx, `select pg_advisory_xact_lock(?, hashtext(?))`, [DELIVERY_LOCK, webhookId]);
  if (options.earlier) {
    await execute(tx, `update "job" set "run_at" = ? where "kind" = ? and "payload"->>'webhookId' = ? and "locked_until" is null and "run_at" > ?`, [
      runAt,
      DELIVER_JOB,
      webhookId,
      runAt,
    ]);
  }
  await execute(
    tx,
    `insert into "job" ("id", "kind", "payload", "run_at", "attempts", "created_at")
     select ?, ?, ?::jsonb, ?::timestamptz, 0, ?::timestamptz
     where not exists (select 1 from "job" where "kind" = ? and "payload"->>'webhookId' = ?)`,
    [newId(), DELIVER_JOB, JSON.stringify({ webhookId }), runAt.toISOString(), runAt.toISOString(), DELIVER_JOB, webhookId],
  );
}
