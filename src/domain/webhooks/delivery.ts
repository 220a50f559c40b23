import type { EntityManager } from '@mikro-orm/postgresql';
import { Webhook } from 'standardwebhooks';
import { DomainEvent, type DomainEventRow } from '../../events/entities.js';
import { recordServerEvent } from '../../events/record.js';
import { newId } from '../../kernel/ids.js';
import { enqueue, type JobHandler, type JobRun } from '../../jobs/queue.js';
import { LeaseLost } from '../../jobs/lease.js';
import { FetchFailure } from '../../net/fetch-document.js';
import { postJson } from '../../net/post-json.js';
import { redactUrlsIn } from '../../kernel/url-redaction.js';
import { DELIVER_JOB } from './delivery-queue.js';
import { WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint, type WebhookDeliveryRow, type WebhookEndpointEntity } from './entities.js';
import { webhookPayload, webhookTarget } from './events.js';
import { openSigningSecret } from './secrets.js';

/** Most deliveries one run sends before it hands over to a new job (other endpoints' jobs get their turn). */
const DELIVERIES_PER_RUN = 50;

/** Wait before the next attempt after `attempts` failed ones: doubling from 2 seconds, at most an hour. */
export const backoffMs = (attempts: number): number => Math.min(2 ** Math.max(attempts - 1, 0) * 2000, 60 * 60 * 1000);

/**
 * The body of a delivery, as Standard Webhooks recommends: the event's type, its time, and its data
 * (the ids it is about, its organization and its payload).
 */
export function deliveryBody(event: DomainEventRow): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    data: { ...event.target, organizationId: event.organizationId, ...event.payload },
  });
}

type Outcome = { status: number | null; durationMs: number; error: string | null };

/** Sends one signed delivery; the outcome, whatever the receiver did (the run's cancellation is thrown). */
async function send(webhook: WebhookEndpointEntity, event: DomainEventRow, secret: string, now: Date, run: JobRun): Promise<Outcome> {
  const body = deliveryBody(event);
  const headers = {
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(event.id, now, body),
    'user-agent': 'docs-platform-webhooks',
  };
  const started = performance.now();
  try {
    const answer = await postJson(
      webhook.url,
      { timeoutMs: run.config.webhooks.timeoutMs, allowPrivate: run.config.fetch.allowPrivate },
      headers,
      body,
      run.signal,
    );
    const ok = answer.status >= 200 && answer.status < 300;
    return { status: answer.status, durationMs: answer.durationMs, error: ok ? null : `the receiver answered ${answer.status}` };
  } catch (error) {
    if (run.signal.aborted || error instanceof LeaseLost) throw error;
    const message = error instanceof FetchFailure ? error.message : String((error as Error)?.message ?? error);
    return { status: null, durationMs: Math.round(performance.now() - started), error: message };
  }
}

/**
 * Records an attempt: the log's row, the delivery's state, the endpoint's failure streak (disabling it
 * at the configured run of failures, announced as webhook.updated), and after a failure the job that
 * tries again once the backoff has passed. Answers whether the delivery succeeded.
 */
async function record(tx: EntityManager, delivery: WebhookDeliveryRow, outcome: Outcome, now: Date, run: JobRun): Promise<boolean> {
  const succeeded = outcome.error === null;
  const attempt = delivery.attempts + 1;
  tx.create(WebhookDeliveryAttempt, {
    id: newId(),
    delivery: delivery.id,
    attempt,
    status: succeeded ? 'succeeded' : 'failed',
    responseStatus: outcome.status,
    durationMs: outcome.durationMs,
    error: outcome.error,
    attemptedAt: now,
  });
  const row = await tx.findOneOrFail(WebhookDelivery, { id: delivery.id });
  row.attempts = attempt;
  const webhook = await tx.findOneOrFail(WebhookEndpoint, { id: row.webhook });
  if (succeeded) {
    row.status = 'delivered';
    row.deliveredAt = now;
    webhook.failureStreak = 0;
  } else {
    row.nextAttemptAt = new Date(now.getTime() + backoffMs(attempt));
    webhook.failureStreak += 1;
    const limit = run.config.webhooks.disableAfterFailures;
    if (webhook.active && webhook.failureStreak >= limit) {
      webhook.active = false;
      webhook.disabledAt = now;
      webhook.disabledReason = `${webhook.failureStreak} delivery attempts in a row failed (the last: ${outcome.error})`;
      webhook.updatedAt = now;
      recordServerEvent(
        tx,
        { now: () => now },
        {
          type: 'webhook.updated',
          organizationId: webhook.organization,
          target: webhookTarget(webhook),
          payload: { ...webhookPayload(webhook), changes: ['active', 'failureStreak', 'disabledAt', 'disabledReason'] },
        },
      );
    } else if (webhook.active) {
      enqueue(tx, { now: () => now }, DELIVER_JOB, { webhookId: webhook.id }, row.nextAttemptAt);
    }
  }
  await tx.flush();
  return succeeded;
}

/**
 * Delivers an endpoint's pending deliveries one at a time, oldest first: each is signed (Standard
 * Webhooks) and POSTed through the guarded fetch, with no transaction open meanwhile. A failure stops
 * the run (the later deliveries wait behind it) and schedules the next attempt after a backoff. Writes
 * go through the run's claim, so a run that lost its job to another instance records nothing.
 */
export const deliverWebhook: JobHandler = async (em, payload, now, run) => {
  const webhookId = String(payload.webhookId);
  // Opened once per run (and again if the secret was rotated meanwhile).
  let signing: { sealed: string; secret: string } | undefined;
  for (let sent = 0; sent < DELIVERIES_PER_RUN; sent++) {
    run.signal.throwIfAborted();
    em.clear();
    const webhook = await em.findOne(WebhookEndpoint, { id: webhookId });
    // Deleted, or disabled: activating it again schedules its deliveries.
    if (!webhook?.active) return;
    const [head] = await em.find(WebhookDelivery, { webhook: webhookId, status: 'pending' }, { orderBy: { seq: 'asc' }, limit: 1 });
    if (!head) return;
    if (head.nextAttemptAt > now) {
      await run.whileClaimed(em, async (tx) => void enqueue(tx, { now: () => now }, DELIVER_JOB, { webhookId }, head.nextAttemptAt));
      return;
    }
    const event = await em.findOne(DomainEvent, { id: head.eventId });
    if (!event) {
      // Removed (the events' retention) before it could be delivered: nothing left to send.
      await run.whileClaimed(em, (tx) => tx.nativeUpdate(WebhookDelivery, { id: head.id }, { status: 'expired' }));
      continue;
    }
    if (signing?.sealed !== webhook.secret)
      signing = { sealed: webhook.secret, secret: await openSigningSecret(em, { now: () => now }, webhook.id, webhook.secret) };
    const outcome = await send(webhook, event, signing.secret, now, run);
    const attempt = head.attempts + 1;
    const succeeded = await run.whileClaimed(em, (tx) => record(tx, head, outcome, now, run));
    if (!succeeded) {
      // The reason may quote the endpoint's URL, whose path or query can hold a receiver's token.
      run.logger.warn(
        { webhook: webhook.id, delivery: head.id, event: event.id, attempt, responseStatus: outcome.status, reason: redactUrlsIn(outcome.error ?? '') },
        'webhook delivery attempt failed',
      );
      return;
    }
  }
  // More may wait: a new job takes them, after the jobs due meanwhile.
  await run.whileClaimed(em, async (tx) => void enqueue(tx, { now: () => now }, DELIVER_JOB, { webhookId }, now));
};
deliverWebhook.outsideTransaction = true;
