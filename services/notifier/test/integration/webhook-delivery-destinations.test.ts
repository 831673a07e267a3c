import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { destinationPolicy } from '../../src/adapters/webhook-http/destination-policy.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import { webhookDeliveryFixture } from '../support/webhook-delivery-fixture.js';

describe('webhook deliveries: dispatcher, sender and store (the SSRF guard at delivery)', function () {
  const { ctx, answers, resolve, register, event, fanOut, dispatcher, untilSettled, deliveryOf } =
    webhookDeliveryFixture('webhook_delivery_destinations');
  let receiver: WebhookReceiver;
  before(() => {
    ({ receiver } = ctx);
  });

  it('by default refuses a loopback address at delivery: nothing reaches the receiver', async () => {
    const endpoint = await register({ url: receiver.url('/private') });
    await fanOut(event(endpoint.siteId));
    await dispatcher({ allowPrivate: false })();
    const row = await deliveryOf(endpoint.id);
    assert.equal(row.status, 'pending');
    assert.match(row.last_error ?? '', /not sent: the URL is a loopback address/);
    assert.equal(receiver.on('/private').length, 0);
  });

  it('refuses a host that resolved to a public address at registration and to 127.0.0.1 at delivery (DNS rebinding)', async () => {
    const policy = destinationPolicy({ allowHttp: true, allowPrivateAddresses: false, resolve });
    // The first answer is public (registration passes), every later one is the receiver's loopback.
    answers.set('rebind.example.test', ['93.184.215.14', '127.0.0.1']);
    const url = `http://rebind.example.test:${receiver.port}/rebind`;
    assert.ok(E.isRight(await policy.check(url)()));
    const endpoint = await register({ url });
    await fanOut(event(endpoint.siteId));
    await dispatcher({ allowPrivate: false })();
    const row = await deliveryOf(endpoint.id);
    assert.match(row.last_error ?? '', /resolves to 127\.0\.0\.1, a loopback address/);
    assert.equal(receiver.on('/rebind').length, 0);
  });

  it('connects to the address it checked, not to a second DNS answer', async () => {
    // Checked answer: 127.0.0.1 (allowed here); any later lookup would say 10.255.255.1,
    // which must never be contacted: the pinned address is used for the connection.
    answers.set('pinned.example.test', ['127.0.0.1', '10.255.255.1']);
    const endpoint = await register({ url: `http://pinned.example.test:${receiver.port}/pinned` });
    await fanOut(event(endpoint.siteId));
    const row = await untilSettled(dispatcher(), endpoint.id);
    assert.equal(row.status, 'delivered');
    assert.equal(receiver.on('/pinned').length, 1);
    assert.equal(receiver.on('/pinned')[0]!.headers.host, `pinned.example.test:${receiver.port}`);
  });
});
