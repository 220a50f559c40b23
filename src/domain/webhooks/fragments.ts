/** Selections of the fields the webhook routes answer with. */

export const WEBHOOK = /* GraphQL */ `
  fragment WebhookFields on Webhook {
    object id organizationId url eventTypes active description failureStreak disabledAt disabledReason createdAt updatedAt
  }
`;

export const WEBHOOK_DELIVERY = /* GraphQL */ `
  fragment WebhookDeliveryFields on WebhookDelivery {
    object id webhookId eventId eventType status attemptCount nextAttemptAt deliveredAt createdAt
    attempts { attempt status responseStatus durationMs error attemptedAt }
  }
`;
