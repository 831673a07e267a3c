// The webhook API's routes and the OpenAPI document name the same operations (the gateway
// forwards /v1.1/sites/:id/webhooks… whole, so its table cannot tell).
import assert from 'node:assert/strict';
import { testGatewayKeys } from '@esign/testing';
import Router from '@koa/router';
import { routeCoverage } from '@esign/contracts/openapi';
import type { AppState } from '@esign/platform';
import { mountWebhookRoutes } from '../../src/adapters/http/webhook-routes.js';
import { mountTestMessageRoutes } from '../../src/adapters/http/test-message-routes.js';
import type { WebhookUseCases } from '../../src/application/webhooks/webhook-use-cases.js';

describe('notifier: the OpenAPI document covers the webhook API, and only it', () => {
  it('documents every route and routes every documented operation', () => {
    const router = new Router<AppState>();
    // Registering routes reads no use case; the handlers would.
    mountWebhookRoutes(router, {} as WebhookUseCases, { gatewayPublicKey: testGatewayKeys.publicKey });
    mountTestMessageRoutes(router, () => () => Promise.reject(new Error('not called')), {
      gatewayPublicKey: testGatewayKeys.publicKey,
    });
    assert.deepEqual(routeCoverage(router.stack, ['Webhooks', 'Test mode']), {
      undocumented: [],
      unserved: [],
    });
  });
});
