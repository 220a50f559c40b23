import type { Route } from '../../kernel/rest-route.js';
import { WEBHOOK, WEBHOOK_DELIVERY } from './fragments.js';

/*
 * REST extras beyond the contract (§6 says nothing of outbound events), in its conventions: paths under
 * the organization, `{items, next: {page}}` pages, 201 for a create, 204 for a delete.
 */

const LIST_PATH = '/v1/orgs/{organizationId}/webhooks';
const ONE_PATH = `${LIST_PATH}/{webhookId}`;
const ITEM = '$organizationId: ID!, $webhookId: ID!';
const ITEM_ARGS = 'organizationId: $organizationId, webhookId: $webhookId';

export const webhookRoutes: Route[] = [
  {
    operationId: 'listWebhooks',
    method: 'GET',
    path: LIST_PATH,
    status: 200,
    document: `query($organizationId: ID!, $page: String, $limit: Int) {
      webhooks(organizationId: $organizationId, page: $page, limit: $limit) { items { ...WebhookFields } count next { page } }
    } ${WEBHOOK}`,
  },
  {
    operationId: 'createWebhook',
    method: 'POST',
    path: LIST_PATH,
    status: 201,
    body: 'input',
    document: `mutation($organizationId: ID!, $input: CreateWebhookInput!) {
      createWebhook(organizationId: $organizationId, input: $input) { ...WebhookFields secret }
    } ${WEBHOOK}`,
  },
  {
    operationId: 'getWebhook',
    method: 'GET',
    path: ONE_PATH,
    status: 200,
    document: `query(${ITEM}) { webhook(${ITEM_ARGS}) { ...WebhookFields } } ${WEBHOOK}`,
  },
  {
    operationId: 'updateWebhook',
    method: 'PATCH',
    path: ONE_PATH,
    status: 200,
    body: 'input',
    document: `mutation(${ITEM}, $input: UpdateWebhookInput!, $ifMatch: String) { updateWebhook(${ITEM_ARGS}, input: $input, ifMatch: $ifMatch) { ...WebhookFields } } ${WEBHOOK}`,
  },
  {
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: ONE_PATH,
    status: 204,
    document: `mutation(${ITEM}, $ifMatch: String) { deleteWebhook(${ITEM_ARGS}, ifMatch: $ifMatch) }`,
  },
  {
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: `${ONE_PATH}/rotate-secret`,
    status: 200,
    document: `mutation(${ITEM}) { rotateWebhookSecret(${ITEM_ARGS}) { ...WebhookFields secret } } ${WEBHOOK}`,
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: `${ONE_PATH}/deliveries`,
    status: 200,
    document: `query(${ITEM}, $page: String, $limit: Int) {
      webhookDeliveries(${ITEM_ARGS}, page: $page, limit: $limit) { items { ...WebhookDeliveryFields } count next { page } }
    } ${WEBHOOK_DELIVERY}`,
  },
  {
    operationId: 'redeliverWebhookDelivery',
    method: 'POST',
    path: `${ONE_PATH}/deliveries/{deliveryId}/redeliver`,
    status: 201,
    document: `mutation(${ITEM}, $deliveryId: ID!) {
      redeliverWebhookDelivery(${ITEM_ARGS}, deliveryId: $deliveryId) { ...WebhookDeliveryFields }
    } ${WEBHOOK_DELIVERY}`,
  },
];
