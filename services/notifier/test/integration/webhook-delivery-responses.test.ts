import assert from 'node:assert/strict';
import type { VerifyWebhook, WebhookReceiver } from '../support/webhook-receiver.js';
import { webhookDeliveryFixture } from '../support/webhook-delivery-fixture.js';

describe('webhook deliveries: dispatcher, sender and store (retries and the endpoint’s answers)', function () {
  const { ctx, register, event, fanOut, dispatcher, untilSettled, deliveryOf, attemptsOf } =
    webhookDeliveryFixture('webhook_delivery_responses');
  let receiver: WebhookReceiver;
  let verifyWebhook: VerifyWebhook;
  before(() => {
    ({ receiver, verifyWebhook } = ctx);
  });

  it('retries a 500 with back-off, then succeeds; every attempt is recorded', async () => {
    const endpoint = await register({ url: receiver.url('/flaky') });
    receiver.script('/flaky', { status: 500, body: 'boom' }, { status: 503, body: 'later' });
    await fanOut(event(endpoint.siteId));
    const row = await untilSettled(dispatcher(), endpoint.id);
    assert.equal(row.status, 'delivered');
    assert.equal(row.attempts, 3);
    const got = receiver.on('/flaky');
    assert.equal(got.length, 3);
    // The same body every time, signed afresh each time.
    assert.ok(got.every((g) => g.body === got[0]!.body));
    assert.ok(
      got.every((g) => verifyWebhook(endpoint.secret, g.headers['esign-signature'] as string, g.body)),
    );
    assert.ok(got[1]!.at - got[0]!.at >= 15, 'waited before retrying');
    assert.deepEqual(
      (await attemptsOf(row.id)).map((a) => [a.attempt, a.outcome, a.response_status]),
      [
        [1, 'retry', 500],
        [2, 'retry', 503],
        [3, 'delivered', 200],
      ],
    );
  });

  it('a 4xx other than 408/429 fails the delivery at once; a 429 is retried', async () => {
    const refused = await register({ url: receiver.url('/gone') });
    receiver.script('/gone', { status: 410, body: 'no such hook' });
    await fanOut(event(refused.siteId));
    const row = await untilSettled(dispatcher(), refused.id);
    assert.equal(row.status, 'failed');
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, 'refused by the endpoint: HTTP 410');
    assert.equal(row.response_excerpt, 'no such hook');

    const limited = await register({ url: receiver.url('/limited') });
    receiver.script('/limited', { status: 429 });
    await fanOut(event(limited.siteId));
    assert.equal((await untilSettled(dispatcher(), limited.id)).attempts, 2);
  });

  it('keeps only the first KB of an answer, does not follow redirects, and times out a silent endpoint', async () => {
    const chatty = await register({ url: receiver.url('/chatty') });
    receiver.script('/chatty', { status: 200, body: 'x'.repeat(100_000) });
    await fanOut(event(chatty.siteId));
    assert.equal((await untilSettled(dispatcher(), chatty.id)).response_excerpt?.length, 1024);

    const moved = await register({ url: receiver.url('/moved') });
    receiver.script('/moved', { status: 302, headers: { location: receiver.url('/target') } });
    await fanOut(event(moved.siteId));
    await dispatcher()();
    assert.equal((await deliveryOf(moved.id)).response_status, 302);
    assert.equal((await deliveryOf(moved.id)).status, 'pending');
    assert.equal(receiver.on('/target').length, 0);

    const silent = await register({ url: receiver.url('/silent') });
    receiver.script('/silent', { hang: true });
    await fanOut(event(silent.siteId));
    await dispatcher({ responseTimeoutMs: 500 })();
    const row = await deliveryOf(silent.id);
    assert.equal(row.status, 'pending');
    assert.equal(row.last_error, 'no answer within 500 ms');
  });
});
