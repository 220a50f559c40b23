import type { Context } from '../../kernel/context.js';
import type { Resolvers } from '../../kernel/resolver-types.js';
import {
  createInOrganization,
  deleteOrganizationItem,
  listInOrganization,
  onOrganizationItem,
  updateOrganizationItem,
  type OrganizationItem,
} from '../../kernel/resolvers.js';
import type { PageArgs } from '../../kernel/pagination.js';
import type { WebhookDeliveryRow } from './entities.js';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhookDelivery,
  rotateWebhookSecret,
  updateWebhook,
  webhookOf,
  type WebhookAnswer,
} from './service.js';

export const webhookResolvers: Resolvers = {
  Query: {
    webhooks: listInOrganization(listWebhooks),
    webhook: onOrganizationItem('webhookId', webhookOf),
    webhookDeliveries: (_: unknown, { organizationId, webhookId, ...page }: OrganizationItem<'webhookId'> & PageArgs, ctx: Context) =>
      listWebhookDeliveries(ctx, organizationId, webhookId, page),
  },
  Mutation: {
    createWebhook: createInOrganization(createWebhook),
    updateWebhook: updateOrganizationItem('webhookId', updateWebhook),
    deleteWebhook: deleteOrganizationItem('webhookId', deleteWebhook),
    rotateWebhookSecret: onOrganizationItem('webhookId', rotateWebhookSecret),
    redeliverWebhookDelivery: (_: unknown, args: OrganizationItem<'webhookId'> & { deliveryId: string }, ctx: Context) =>
      redeliverWebhookDelivery(ctx, args.organizationId, args.webhookId, args.deliveryId),
  },
  Webhook: {
    object: () => 'webhook',
    organizationId: (w: WebhookAnswer) => w.organization,
    // The stored value is sealed; the clear one only travels in the answer that made it.
    secret: (w: WebhookAnswer) => w.revealedSecret ?? null,
  },
  WebhookDelivery: {
    object: () => 'webhook-delivery',
    webhookId: (d: WebhookDeliveryRow) => d.webhook,
    attemptCount: (d: WebhookDeliveryRow) => d.attempts,
    nextAttemptAt: (d: WebhookDeliveryRow) => (d.status === 'pending' ? d.nextAttemptAt : null),
    attempts: (d: WebhookDeliveryRow, _: unknown, ctx: Context) => ctx.loaders.webhookDeliveryAttempts.get(d.id),
  },
};
