import assert from 'node:assert/strict';
import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { db, sql, type DatabasePool } from '@esign/platform/database';
import { sealLegacyWebhookSecrets } from '../../src/adapters/postgres/postgres-webhook-endpoint-store.js';
import { testSealer } from '../support/webhooks.js';
import type { VerifyWebhook, WebhookReceiver } from '../support/webhook-receiver.js';
import { webhookDeliveryFixture } from '../support/webhook-delivery-fixture.js';

describe('webhook deliveries: dispatcher, sender and store (sealed secrets, signing and fan-out)', function () {
  const { ctx, register, event, fanOut, stored, dispatcher, untilSettled, deliveryOf } =
    webhookDeliveryFixture('webhook_delivery_signing');
  let pool: DatabasePool;
  let receiver: WebhookReceiver;
  let verifyWebhook: VerifyWebhook;
  before(() => {
    ({ pool, receiver, verifyWebhook } = ctx);
  });

  const storedSecrets = (endpointId: string) =>
    db.one(
      pool,
      t.type({ secret: t.string, previous_secret: t.union([t.string, t.null]) }),
      sql.unsafe`SELECT secret, previous_secret FROM webhook_endpoints WHERE id = ${endpointId}`,
    );

  it('L11: keeps webhook secrets sealed in their rows, and deliveries still verify', async () => {
    const endpoint = await register({
      url: receiver.url('/sealed'),
      eventTypes: ['request.completed'],
      previousSecret: 'whsec_the-previous-secret-still-in-its-overlap',
      previousSecretExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const row = await storedSecrets(endpoint.id);
    for (const stored of [row.secret, row.previous_secret!]) {
      assert.match(stored, /^sealed:k1:[A-Za-z0-9_-]+$/);
      assert.ok(!stored.includes(endpoint.secret.slice('whsec_'.length)), 'no plaintext in the row');
      assert.ok(!stored.includes('the-previous-secret'), 'no plaintext in the row');
    }
    // The seal is bound to its endpoint: copied to another row it does not open.
    assert.throws(() => testSealer.open(row.secret, 'webhook-secret:another-endpoint'));
    const read = await stored(endpoint);
    assert.ok(O.isSome(read));
    assert.equal(read.value.secret, endpoint.secret);

    await fanOut(event(endpoint.siteId));
    await untilSettled(dispatcher(), endpoint.id);
    const [got] = receiver.on('/sealed');
    assert.ok(got !== undefined);
    const header = got.headers['esign-signature'] as string;
    assert.equal(verifyWebhook(endpoint.secret, header, got.body), true);
    assert.equal(verifyWebhook(endpoint.previousSecret!, header, got.body), true);
  });

  it('L11: seals the secrets of rows stored in the clear before sealing began, once', async () => {
    const endpoint = await register({ url: receiver.url('/legacy'), eventTypes: ['request.completed'] });
    await db.exec(
      pool,
      sql.unsafe`UPDATE webhook_endpoints SET secret = ${endpoint.secret} WHERE id = ${endpoint.id}`,
    );
    const legacy = await stored(endpoint);
    assert.ok(O.isSome(legacy) && legacy.value.secret === endpoint.secret, 'read while still in the clear');
    assert.ok((await sealLegacyWebhookSecrets(pool, testSealer)) >= 1);
    assert.match((await storedSecrets(endpoint.id)).secret, /^sealed:k1:/);
    assert.equal(await sealLegacyWebhookSecrets(pool, testSealer), 0);
    await fanOut(event(endpoint.siteId));
    await untilSettled(dispatcher(), endpoint.id);
    const [got] = receiver.on('/legacy');
    assert.ok(got !== undefined);
    assert.equal(verifyWebhook(endpoint.secret, got.headers['esign-signature'] as string, got.body), true);
  });

  it('POSTs the event to each subscribed endpoint, signed so that the README snippet verifies it', async () => {
    const endpoint = await register({ url: receiver.url('/ok'), eventTypes: ['request.completed'] });
    const e = event(endpoint.siteId);
    assert.deepEqual(await fanOut(e), { _tag: 'FannedOut', deliveries: 1 });
    await untilSettled(dispatcher(), endpoint.id);

    const [got] = receiver.on('/ok');
    assert.ok(got !== undefined);
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['esign-event-type'], 'request.completed');
    assert.equal(got.headers['user-agent'], 'Esign-Webhooks/1.1');
    assert.equal(verifyWebhook(endpoint.secret, got.headers['esign-signature'] as string, got.body), true);
    assert.deepEqual(JSON.parse(got.body), {
      id: e.id,
      type: 'request.completed',
      created_at: e.occurred_at,
      site_id: endpoint.siteId,
      data: e.data,
    });
    // Replayed 6 minutes later, or with a changed body, the same delivery is refused.
    const header = got.headers['esign-signature'] as string;
    assert.equal(verifyWebhook(endpoint.secret, header, got.body, Date.now() + 6 * 60_000), false);
    assert.equal(verifyWebhook(endpoint.secret, header, got.body.replace('completed', 'cancelled')), false);

    const row = await deliveryOf(endpoint.id);
    assert.equal(row.status, 'delivered');
    assert.equal(row.response_status, 200);
    assert.equal(row.response_excerpt, 'ok');
    assert.equal(got.headers['esign-delivery-id'], row.id);
  });

  it('fans out once per event, only to enabled endpoints of that site subscribed to its type', async () => {
    const a = await register({ url: receiver.url('/a'), eventTypes: ['request.signed'] });
    const b = await register({
      siteId: a.siteId,
      url: receiver.url('/b'),
      eventTypes: ['request.completed'],
    });
    await register({
      siteId: a.siteId,
      url: receiver.url('/c'),
      eventTypes: ['request.signed'],
      enabled: false,
    });
    await register({ url: receiver.url('/d'), eventTypes: ['request.signed'] }); // another site
    const signed = event(a.siteId, 'request.signed');
    assert.deepEqual(await fanOut(signed), { _tag: 'FannedOut', deliveries: 1 });
    assert.deepEqual(await fanOut(signed), { _tag: 'FannedOut', deliveries: 0 }); // redelivered by RabbitMQ
    assert.deepEqual(await fanOut(event(a.siteId, 'notification.delivered')), { _tag: 'NotDeliverable' });
    assert.deepEqual(await fanOut(event(a.siteId, 'request.whatever')), { _tag: 'NotDeliverable' });
    // A type clients may subscribe to (ADR 3490), but no endpoint of this Site does.
    assert.deepEqual(await fanOut(event(a.siteId, 'request.created')), { _tag: 'FannedOut', deliveries: 0 });
    const { count } = await db.one(
      pool,
      t.type({ count: t.number }),
      sql.unsafe`SELECT count(*)::int AS count FROM webhook_deliveries WHERE site_id = ${a.siteId}`,
    );
    assert.equal(count, 1);
    assert.equal((await deliveryOf(a.id)).status, 'pending');
    await untilSettled(dispatcher(), a.id);
    assert.equal(receiver.on('/b').length + receiver.on('/c').length + receiver.on('/d').length, 0);
    void b;
  });
});
