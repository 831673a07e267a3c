import { createWebhookEndpoint, type ManageWebhooksDeps } from './create-webhook-endpoint.js';
import { deleteWebhookEndpoint } from './delete-webhook-endpoint.js';
import { getWebhookDelivery, listWebhookDeliveries } from './list-webhook-deliveries.js';
import { getWebhookEndpoint, listWebhookEndpoints } from './list-webhook-endpoints.js';
import { rotateWebhookSecret } from './rotate-webhook-secret.js';
import { updateWebhookEndpoint } from './update-webhook-endpoint.js';

/** The webhook API's use cases, wired once. */
export const webhookUseCases = (deps: ManageWebhooksDeps) => ({
  create: createWebhookEndpoint(deps),
  list: listWebhookEndpoints(deps),
  get: getWebhookEndpoint(deps),
  update: updateWebhookEndpoint(deps),
  remove: deleteWebhookEndpoint(deps),
  rotateSecret: rotateWebhookSecret(deps),
  listDeliveries: listWebhookDeliveries(deps),
  getDelivery: getWebhookDelivery(deps),
});
export type WebhookUseCases = ReturnType<typeof webhookUseCases>;
