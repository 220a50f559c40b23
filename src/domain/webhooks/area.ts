import { schemaBeside, type Area } from '../../kernel/area.js';
import { WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint } from './entities.js';
import { scheduleWebhookFanOut, webhookJobs } from './jobs.js';
import { webhookLoaders } from './loaders.js';
import { webhookResolvers } from './resolvers.js';
import { CreateWebhookInput, UpdateWebhookInput } from './inputs.js';
import { webhookRoutes } from './routes.js';

/**
 * Webhook endpoints of organizations and the delivery of domain events to them (Standard Webhooks):
 * the fan-out turns committed events into deliveries, a durable job per endpoint sends them in order.
 */
export const webhooksArea = {
  name: 'webhooks',
  typeDefs: schemaBeside(import.meta.url),
  inputs: { CreateWebhookInput, UpdateWebhookInput },
  resolvers: webhookResolvers,
  loaders: webhookLoaders,
  entities: [WebhookEndpoint, WebhookDelivery, WebhookDeliveryAttempt],
  routes: webhookRoutes,
  jobs: webhookJobs,
  recurring: (em, _config, now) => scheduleWebhookFanOut(em, now),
} satisfies Area;
