import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
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
  await executeReturning(tx, sql`select pg_advisory_xact_lock(${DELIVERY_LOCK}, hashtext(${webhookId}))`);
  if (options.earlier) {
    await execute(
      tx,
      sql`update "job" set "run_at" = ${runAt} where "kind" = ${DELIVER_JOB} and "payload"->>'webhookId' = ${webhookId} and "locked_until" is null and "run_at" > ${runAt}`,
    );
  }
  await execute(
    tx,
    sql`insert into "job" ("id", "kind", "payload", "run_at", "attempts", "created_at")
     select ${newId()}, ${DELIVER_JOB}, ${JSON.stringify({ webhookId })}::jsonb, ${runAt.toISOString()}::timestamptz, 0, ${runAt.toISOString()}::timestamptz
     where not exists (select 1 from "job" where "kind" = ${DELIVER_JOB} and "payload"->>'webhookId' = ${webhookId})`,
  );
}
