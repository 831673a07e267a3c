import {
  CreateWebhookEndpointBody,
  RotateWebhookSecretBody,
  UpdateWebhookEndpointBody,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookEndpointList,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from '../webhooks.js';
import { PAGE_QUERY, SITE_ID, type Operation } from './operation.js';

const BASE = '/v1.1/sites/{site_id}/webhooks';
const ENDPOINT = `${BASE}/{webhook_id}`;
const ENDPOINT_PARAMS = {
  site_id: SITE_ID,
  webhook_id: { description: 'The webhook endpoint (a UUID).' },
} as const;

const webhooks = (operation: Omit<Operation, 'auth' | 'tag'>): Operation => ({
  ...operation,
  auth: 'access_token',
  tag: 'Webhooks',
});

/** The webhook API the notifier serves through the gateway. */
export const WEBHOOK_OPERATIONS: readonly Operation[] = [
  webhooks({
    method: 'post',
    path: BASE,
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description:
      'An `https` URL whose host resolves only to public addresses, the event types to deliver and where to write ' +
      'when the endpoint is turned off. The signing `secret` is shown this once.',
    params: { site_id: SITE_ID },
    body: { codec: CreateWebhookEndpointBody },
    responses: {
      201: { description: 'The endpoint and its secret.', codec: WebhookEndpointWithSecret, location: true },
    },
    problems: ['too_many_webhook_endpoints'],
  }),
  webhooks({
    method: 'get',
    path: BASE,
    operationId: 'listWebhookEndpoints',
    summary: 'List the Site’s webhook endpoints',
    params: { site_id: SITE_ID },
    query: PAGE_QUERY,
    responses: {
      200: { description: 'One page of endpoints, never with secrets.', codec: WebhookEndpointList },
    },
    problems: ['invalid_query'],
  }),
  webhooks({
    method: 'get',
    path: ENDPOINT,
    operationId: 'getWebhookEndpoint',
    summary: 'Get a webhook endpoint',
    params: ENDPOINT_PARAMS,
    responses: { 200: { description: 'The endpoint.', codec: WebhookEndpointView } },
    problems: [],
  }),
  webhooks({
    method: 'patch',
    path: ENDPOINT,
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    description: 'Any of `url`, `event_types`, `alert_email`, `description`, `enabled` (at least one).',
    params: ENDPOINT_PARAMS,
    body: { codec: UpdateWebhookEndpointBody },
    responses: { 200: { description: 'The endpoint after the change.', codec: WebhookEndpointView } },
    problems: [],
  }),
  webhooks({
    method: 'delete',
    path: ENDPOINT,
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: 'With its delivery log.',
    params: ENDPOINT_PARAMS,
    responses: { 204: { description: 'Deleted.' } },
    problems: [],
  }),
  webhooks({
    method: 'post',
    path: `${ENDPOINT}/rotate-secret`,
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate a webhook endpoint’s secret',
    description:
      'A new secret, shown this once. Until `previous_secret_expires_at` deliveries carry a signature with each secret.',
    params: ENDPOINT_PARAMS,
    body: { codec: RotateWebhookSecretBody, required: false },
    responses: { 200: { description: 'The endpoint and its new secret.', codec: WebhookEndpointWithSecret } },
    problems: [],
  }),
  webhooks({
    method: 'get',
    path: `${ENDPOINT}/deliveries`,
    operationId: 'listWebhookDeliveries',
    summary: 'List an endpoint’s recent deliveries',
    description: 'Newest first.',
    params: ENDPOINT_PARAMS,
    query: {
      ...PAGE_QUERY,
      status: {
        description: 'Only deliveries in this state.',
        schema: { type: 'string', enum: ['pending', 'sending', 'delivered', 'failed'] },
      },
    },
    responses: { 200: { description: 'One page of deliveries.', codec: WebhookDeliveryList } },
    problems: ['invalid_query'],
  }),
  webhooks({
    method: 'get',
    path: `${ENDPOINT}/deliveries/{delivery_id}`,
    operationId: 'getWebhookDelivery',
    summary: 'Get a delivery with every attempt',
    params: { ...ENDPOINT_PARAMS, delivery_id: { description: 'The delivery (a UUID).' } },
    responses: { 200: { description: 'The delivery and its attempts.', codec: WebhookDeliveryDetail } },
    problems: [],
  }),
];
