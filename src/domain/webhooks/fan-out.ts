import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { execute, executeReturning } from '../../db/statements.js';
import { newId } from '../../kernel/ids.js';
import { scheduleDelivery } from './delivery-queue.js';

/** Most events handed out by one fan-out transaction: a backlog is worked off in bounded steps. */
export const FAN_OUT_BATCH = 500;

type Match = { eventId: string; eventType: string; organizationId: string; webhookId: string };

/**
 * Hands committed events, oldest first, to the webhook endpoints that want them: one delivery per
 * matching active endpoint of the event's organization, then marks the events dispatched; all in the
 * caller's transaction. The events are claimed FOR UPDATE SKIP LOCKED, so instances fanning out at
 * once take different events and none is handed out twice. Answers how many events it took (at most
 * FAN_OUT_BATCH: the caller goes on while the batch was full).
 */
export async function fanOutEvents(tx: EntityManager, now: Date): Promise<number> {
  const claimed = await executeReturning<{ id: string }>(
    tx,
    sql`select "id" from "domain_event" where "dispatched_at" is null order by "seq" limit ${FAN_OUT_BATCH} for update skip locked`,
  );
  if (claimed.length === 0) return 0;
  // Sent as one JSON array: a statement's parameters stay few whatever the batch.
  const ids = claimed.map((row) => row.id);
  // Refused mutations (the audit log's) are delivered nowhere.
  const matches = await executeReturning<Match>(
    tx,
    sql`select e."id" as "eventId", e."type" as "eventType", e."organization_id" as "organizationId", w."id" as "webhookId"
     from "domain_event" e join "webhook_endpoint" w on w."organization_id" = e."organization_id"
     where e."id" in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)) and e."outcome" = 'succeeded' and w."active" and e."seq" > w."from_seq"
       and (w."event_types" @> jsonb_build_array(e."type") or w."event_types" @> '["*"]'::jsonb)
     order by e."seq", w."id"`,
  );
  if (matches.length) {
    // Numbered (seq) in the list's order: an endpoint's deliveries follow its events' order.
    const rows = matches.map((m) => ({ id: newId(), webhookId: m.webhookId, organizationId: m.organizationId, eventId: m.eventId, eventType: m.eventType }));
    await execute(
      tx,
      sql`insert into "webhook_delivery" ("id", "webhook_id", "organization_id", "event_id", "event_type", "status", "attempts", "next_attempt_at", "created_at")
       select d."id", d."webhookId", d."organizationId", d."eventId", d."eventType", 'pending', 0, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
       from rows from (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as ("id" text, "webhookId" text, "organizationId" text, "eventId" text, "eventType" text))
         with ordinality as d("id", "webhookId", "organizationId", "eventId", "eventType", "n")
       order by d."n"`,
    );
  }
  await execute(tx, sql`update "domain_event" set "dispatched_at" = ${now} where "id" in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`);
  for (const webhookId of new Set(matches.map((m) => m.webhookId))) await scheduleDelivery(tx, webhookId, now);
  return claimed.length;
}
