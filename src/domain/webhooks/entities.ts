import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';

/**
 * An organization's webhook endpoint: where the events of the types it names are delivered, signed with
 * its secret (Standard Webhooks). The secret is stored sealed; its clear text is shown once.
 */
export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    url: p.text(),
    /** Event type names of the catalogue (src/events/types.ts), or `['*']` for every type. */
    eventTypes: p.json<string[]>(),
    active: p.boolean(),
    description: p.string().length(500).nullable(),
    /** The `whsec_` signing secret, sealed under a server key (secrets.ts). */
    secret: p.text(),
    /** Consecutive failed attempts; the endpoint is disabled once it reaches WEBHOOK_DISABLE_AFTER_FAILURES. */
    failureStreak: p.integer(),
    disabledAt: p.datetime().nullable(),
    disabledReason: p.text().nullable(),
    /** The outbox's last sequence number when the endpoint was made: it receives the events recorded after it. */
    fromSeq: p.bigint('number'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type WebhookEndpointEntity = InferEntity<typeof WebhookEndpoint>;
export type WebhookEndpointRow = Plain<WebhookEndpointEntity>;

/**
 * One event to deliver to one endpoint. An endpoint's deliveries go out in `seq` order, one at a time:
 * the oldest pending one holds the later ones until it succeeds (a redelivery is a new row, at the end).
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  indexes: [
    // The head of an endpoint's queue, and the delivery log (newest first).
    { properties: ['webhook', 'status', 'seq'] },
    { properties: ['webhook', 'seq'] },
  ],
  properties: {
    id: p.string().primary(),
    seq: p.bigint('number').autoincrement().unique(),
    webhook: () => p.manyToOne(WebhookEndpoint).mapToPk().deleteRule('cascade'),
    organizationId: p.string(),
    eventId: p.string(),
    eventType: p.string().length(64),
    /** `pending` until a receiver answered 2xx, then `delivered` (`expired`: its event was removed first). */
    status: p.string().length(16),
    /** Attempts made so far. */
    attempts: p.integer(),
    /** When the next attempt may be made (backoff after a failure). */
    nextAttemptAt: p.datetime(),
    deliveredAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type WebhookDeliveryRow = Plain<InferEntity<typeof WebhookDelivery>>;

/** The delivery log: one row per attempt of a delivery. */
export const WebhookDeliveryAttempt = defineEntity({
  name: 'WebhookDeliveryAttempt',
  indexes: [{ properties: ['delivery', 'attempt'] }],
  properties: {
    id: p.string().primary(),
    delivery: () => p.manyToOne(WebhookDelivery).mapToPk().deleteRule('cascade'),
    /** 1 for the first attempt of the delivery. */
    attempt: p.integer(),
    /** `succeeded` (a 2xx answer) or `failed`. */
    status: p.string().length(16),
    /** The receiver's HTTP status (null when it did not answer). */
    responseStatus: p.integer().nullable(),
    durationMs: p.integer(),
    error: p.text().nullable(),
    attemptedAt: p.datetime(),
  },
});
export type WebhookDeliveryAttemptRow = Plain<InferEntity<typeof WebhookDeliveryAttempt>>;
