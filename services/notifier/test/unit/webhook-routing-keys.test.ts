import assert from 'node:assert/strict';
import { WEBHOOK_EVENT_TYPES } from '@esign/contracts';
import { siteRoutingKey } from '@esign/platform/messaging';
import { siteWebhookKeys } from '../../src/adapters/amqp/webhook-event-consumer.js';

describe('the webhook queue’s bindings for a Site (ADRs 2690, 3490)', () => {
  it('binds every type a client can subscribe to, but request.created only for a Site whose endpoints want it', () => {
    const everyOther = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'request.created').map((type) =>
      siteRoutingKey(7, type),
    );
    // Every create publishes one: a Site listening to other events is not sent them all.
    assert.deepEqual(siteWebhookKeys(7, ['request.sent']), everyOther);
    assert.deepEqual(siteWebhookKeys(7, []), everyOther);
    assert.deepEqual(
      siteWebhookKeys(7, ['request.signed', 'request.created']).sort(),
      [...everyOther, siteRoutingKey(7, 'request.created')].sort(),
    );
  });
});
