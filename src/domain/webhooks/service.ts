import sql, { raw } from 'sql-template-tag';
import type { Context } from '../../kernel/context.js';
import { readPage } from '../../db/pages.js';
import { readRows } from '../../db/statements.js';
import { recordEvent } from '../../events/record.js';
import { newId } from '../../kernel/ids.js';
import { webUrl } from '../../net/fetch-document.js';
import { refusalOfTarget } from '../../net/target-refusal.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import { pageOfOrganization, rowOfOrganization } from '../../db/organization-rows.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { CreateWebhookInput, UpdateWebhookInput } from './inputs.js';
import { scheduleDelivery } from './delivery-queue.js';
import { WebhookDelivery, WebhookEndpoint, type WebhookDeliveryRow, type WebhookEndpointEntity, type WebhookEndpointRow } from './entities.js';
import { webhookPayload, webhookTarget } from './events.js';
import { newSigningSecret, sealSigningSecret } from './secrets.js';

/** An endpoint as a mutation answers it: with its signing secret in clear when the mutation made it. */
export type WebhookAnswer = WebhookEndpointRow & { revealedSecret?: string };

/**
 * Refuses a URL that deliveries would be refused to reach (a private address that FETCH_ALLOW_PRIVATE
 * does not allow), so an endpoint that can never receive anything is not made. Delivery checks again
 * when it connects: the allow-list and DNS may change meanwhile.
 */
async function refuseUnreachable(ctx: Context, address: string): Promise<void> {
  const refusal = await refusalOfTarget(webUrl(address), ctx.config.fetch);
  if (refusal) throw badRequest(`url: ${refusal}`);
}

/** The endpoint `id` of the organization; 404 when it belongs to another organization or none. */
export function webhookOf(ctx: Context, organizationId: string, id: string): Promise<WebhookEndpointEntity> {
  return rowOfOrganization(ctx.em, WebhookEndpoint, organizationId, { id }, 'Webhook');
}

/** The organization's endpoints, oldest first; one page read in SQL. */
export function listWebhooks(ctx: Context, organizationId: string, args: PageArgs) {
  return pageOfOrganization(ctx.em, WebhookEndpoint, 'w', organizationId, args);
}

export async function createWebhook(ctx: Context, organizationId: string, input: unknown): Promise<WebhookAnswer> {
  const fields = parseInput(CreateWebhookInput, input);
  await refuseUnreachable(ctx, fields.url);
  const id = newId();
  const secret = newSigningSecret();
  const sealed = await sealSigningSecret(ctx.em, ctx.clock, id, secret);
  const now = ctx.clock.now();
  // Events recorded before the endpoint existed (some perhaps not fanned out yet) are not its to receive.
  const [last] = await readRows<{ seq: string | null }>(ctx.em, sql`select max("seq") as "seq" from "domain_event"`);
  const webhook = ctx.em.create(WebhookEndpoint, {
    id,
    organization: organizationId,
    url: fields.url,
    eventTypes: fields.eventTypes,
    active: fields.active ?? true,
    description: fields.description ?? null,
    secret: sealed,
    failureStreak: 0,
    disabledAt: null,
    disabledReason: null,
    fromSeq: Number(last?.seq ?? 0),
    createdAt: now,
    updatedAt: now,
  });
  recordEvent(ctx, ctx.em, { type: 'webhook.created', organizationId, target: webhookTarget(webhook), payload: webhookPayload(webhook) });
  await ctx.em.flush();
  return { ...webhook, revealedSecret: secret };
}

/**
 * Changes the fields given. Activating an endpoint clears its failure streak and the record of its
 * disabling, and resumes its pending deliveries at once; deactivating it holds them.
 */
export async function updateWebhook(ctx: Context, organizationId: string, id: string, input: unknown): Promise<WebhookEndpointRow> {
  const fields = parseInput(UpdateWebhookInput, input);
  const webhook = await webhookOf(ctx, organizationId, id);
  if (fields.url !== undefined && fields.url !== webhook.url) await refuseUnreachable(ctx, fields.url);
  const before = webhookPayload(webhook);
  const now = ctx.clock.now();
  if (fields.url !== undefined) webhook.url = fields.url;
  if (fields.eventTypes !== undefined) webhook.eventTypes = fields.eventTypes;
  if (fields.description !== undefined) webhook.description = fields.description;
  const activated = fields.active === true && !webhook.active;
  if (fields.active !== undefined && fields.active !== webhook.active) {
    webhook.active = fields.active;
    webhook.failureStreak = 0;
    webhook.disabledAt = fields.active ? null : now;
    webhook.disabledReason = fields.active ? null : 'disabled by an administrator';
  }
  const changed = webhookPayload(webhook);
  const changes = Object.keys(changed).filter(
    (key) => JSON.stringify(changed[key as keyof typeof changed]) !== JSON.stringify(before[key as keyof typeof before]),
  );
  // Every field as it was: a no-op, which moves nothing and records nothing.
  if (!changes.length) return webhook;
  webhook.updatedAt = now;
  const after = webhookPayload(webhook);
  await ctx.em.transactional(async (tx) => {
    recordEvent(ctx, tx, { type: 'webhook.updated', organizationId, target: webhookTarget(webhook), payload: { ...after, changes } });
    if (activated) await scheduleDelivery(tx, webhook.id, now, { earlier: true });
  });
  return webhook;
}

/** Deletes the endpoint with its pending deliveries and its log. */
export async function deleteWebhook(ctx: Context, organizationId: string, id: string): Promise<void> {
  const webhook = await webhookOf(ctx, organizationId, id);
  recordEvent(ctx, ctx.em, { type: 'webhook.deleted', organizationId, target: webhookTarget(webhook), payload: webhookPayload(webhook) });
  ctx.em.remove(webhook);
  await ctx.em.flush();
}

/** Replaces the signing secret: deliveries from now on are signed with the new one, shown in this answer only. */
export async function rotateWebhookSecret(ctx: Context, organizationId: string, id: string): Promise<WebhookAnswer> {
  const webhook = await webhookOf(ctx, organizationId, id);
  const secret = newSigningSecret();
  webhook.secret = await sealSigningSecret(ctx.em, ctx.clock, webhook.id, secret);
  webhook.updatedAt = ctx.clock.now();
  recordEvent(ctx, ctx.em, {
    type: 'webhook.updated',
    organizationId,
    target: webhookTarget(webhook),
    payload: { ...webhookPayload(webhook), changes: ['secret'] },
  });
  await ctx.em.flush();
  return { ...webhook, revealedSecret: secret };
}

/** The endpoint's deliveries, newest first; one page read in SQL. */
export async function listWebhookDeliveries(ctx: Context, organizationId: string, webhookId: string, args: PageArgs) {
  await webhookOf(ctx, organizationId, webhookId);
  return readPage(
    ctx.em,
    {
      entity: WebhookDelivery,
      alias: 'd',
      where: sql`${raw('d')}.webhook_id = ${webhookId}`,
      order: [{ sql: 'd.seq', desc: true, integer: true, of: (row: WebhookDeliveryRow) => row.seq }],
    },
    args,
  );
}

/**
 * Delivers a delivery's event again: a new delivery of the same event (the same `webhook-id`, so a
 * receiver can tell it has seen it), queued after the endpoint's pending ones.
 */
export async function redeliverWebhookDelivery(ctx: Context, organizationId: string, webhookId: string, deliveryId: string): Promise<WebhookDeliveryRow> {
  const webhook = await webhookOf(ctx, organizationId, webhookId);
  const original = await ctx.em.findOne(WebhookDelivery, { id: deliveryId, webhook: webhook.id });
  if (!original) throw notFound('Webhook delivery');
  const now = ctx.clock.now();
  return ctx.em.transactional(async (tx) => {
    const delivery = tx.create(WebhookDelivery, {
      id: newId(),
      webhook: webhook.id,
      organizationId,
      eventId: original.eventId,
      eventType: original.eventType,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      deliveredAt: null,
      createdAt: now,
    } as WebhookDeliveryRow);
    await tx.flush();
    if (webhook.active) await scheduleDelivery(tx, webhook.id, now);
    return delivery;
  });
}
