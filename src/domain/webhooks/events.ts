import type { WebhookEndpointRow } from './entities.js';

/** The payload of webhook events: the endpoint without its secret. */
export const webhookPayload = (webhook: WebhookEndpointRow) => ({
  object: 'webhook',
  id: webhook.id,
  url: webhook.url,
  eventTypes: webhook.eventTypes,
  active: webhook.active,
  description: webhook.description,
  failureStreak: webhook.failureStreak,
  disabledAt: webhook.disabledAt?.toISOString() ?? null,
  disabledReason: webhook.disabledReason,
  createdAt: webhook.createdAt.toISOString(),
  updatedAt: webhook.updatedAt.toISOString(),
});

/** The ids a webhook event is about. */
export const webhookTarget = (webhook: WebhookEndpointRow) => ({ webhookId: webhook.id });
