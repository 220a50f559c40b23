import type { Resolvers } from '../../kernel/resolver-types.js';
import { createInOrganization, listInOrganization, onOrganizationItem } from '../../kernel/resolvers.js';
import { deleteOrganizationItemIfMatch, etagOfResource, updateOrganizationItemIfMatch, organizationItemResource } from '../../graphql/conditional-writes.js';
import { WebhookEndpoint, type WebhookDeliveryRow } from './entities.js';
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

/** A webhook as conditional writes name it (graphql/conditional-writes.ts). */
const webhookResource = organizationItemResource('getWebhook', 'webhookId', WebhookEndpoint);

export const webhookResolvers: Resolvers = {
  Query: {
    webhooks: listInOrganization(listWebhooks),
    webhook: onOrganizationItem('webhookId', webhookOf),
    webhookDeliveries: (_, { organizationId, webhookId, ...page }, ctx) => listWebhookDeliveries(ctx, organizationId, webhookId, page),
  },
  Mutation: {
    createWebhook: createInOrganization(createWebhook),
    updateWebhook: updateOrganizationItemIfMatch('webhookId', webhookResource, updateWebhook),
    deleteWebhook: deleteOrganizationItemIfMatch('webhookId', webhookResource, deleteWebhook),
    rotateWebhookSecret: onOrganizationItem('webhookId', rotateWebhookSecret),
    redeliverWebhookDelivery: (_, args, ctx) => redeliverWebhookDelivery(ctx, args.organizationId, args.webhookId, args.deliveryId),
  },
  Webhook: {
    object: () => 'webhook',
    etag: (w, _, ctx) => etagOfResource(ctx, webhookResource(w.organization, w.id)),
    organizationId: (w) => w.organization,
    // The stored value is sealed; the clear one only travels in the answer that made it.
    secret: (w) => w.revealedSecret ?? null,
  },
  WebhookDelivery: {
    object: () => 'webhook-delivery',
    webhookId: (d) => d.webhook,
    attemptCount: (d) => d.attempts,
    nextAttemptAt: (d) => (d.status === 'pending' ? d.nextAttemptAt : null),
    attempts: (d, _, ctx) => ctx.loaders.webhookDeliveryAttempts.get(d.id),
  },
};

declare module '../../kernel/resolver-parents.js' {
  interface ResolverParents {
    Webhook: WebhookAnswer;
    WebhookDelivery: WebhookDeliveryRow;
  }
}
