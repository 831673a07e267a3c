import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { needsRetry, settleRetryDelays } from '../../src/application/notify-signers.js';
import { requestSent, signer } from '../support/events.js';
import type { PerDay } from '../../src/adapters/quota/limiter-message-quota.js';
import { setup, tags } from '../support/notify-signers-setup.js';

describe('notifier use case: notify signers', () => {
  it('keeps the messages of a test-mode Request instead of sending them, and charges no quota', async () => {
    const stingy: PerDay = { site: { email: 1, sms: 1 }, recipient: { email: 1, sms: 1 } };
    const { email, sms, testInbox, run } = setup(stingy);
    const a = signer({
      signer_ref: 'a',
      mobile_number: '12025550101',
      send_to: { email: true, mobile_number: true },
    });
    const event = { ...requestSent([a]), test_mode: true as const };
    const report = await run(event);
    assert.deepEqual(tags(report), ['a/email:Delivered', 'a/sms:Delivered']);
    assert.deepEqual([email.sent.length, sms.sent.length], [0, 0], 'nothing left the notifier');
    const kept = testInbox.kept();
    assert.deepEqual(
      kept.map((m) => [m.key.channel, m.recipient, m.executionUrl]),
      [
        ['email', a.email, a.request_url],
        ['sms', '+12025550101', a.request_url],
      ],
    );
    assert.match(kept[0]!.subject ?? '', /Acme Lettings sent you/);
    assert.ok(kept[0]!.body.includes(a.request_url) && kept[1]!.body.includes(a.request_url));
    // A redelivery keeps nothing twice; the quota of one a day was never touched.
    await run(event);
    assert.equal(testInbox.kept().length, 2);
    const real = await run(requestSent([a]));
    assert.deepEqual(tags(real), ['a/email:Delivered', 'a/sms:Delivered'], 'the real quota is whole');
  });

  it('sends each selected message once and reports it delivered', async () => {
    const { db, email, sms, run } = setup();
    const a = signer({
      signer_ref: 'a',
      mobile_number: '12025550101',
      send_to: { email: true, mobile_number: true },
    });
    const b = signer({
      signer_ref: 'b',
      email: null,
      mobile_number: '12025550102',
      send_to: { email: true, mobile_number: true },
    });
    const report = await run(requestSent([a, b]));
    assert.deepEqual(tags(report), ['a/email:Delivered', 'a/sms:Delivered', 'b/sms:Delivered']);
    assert.deepEqual(
      email.sent.map((m) => m.to),
      [a.email],
    );
    assert.deepEqual(sms.sent.map((m) => m.to).sort(), ['+12025550101', '+12025550102']);
    assert.ok(email.sent[0]!.text.includes(a.request_url));
    assert.ok(sms.sent.find((m) => m.to === '+12025550102')!.body.includes(b.request_url));
    assert.deepEqual(
      db.events.map((e) => e.type),
      Array(3).fill('notification.delivered'),
    );
    assert.equal(needsRetry(report), false);
  });

  it('acks a redelivered event without sending anything again', async () => {
    const { email, db, run } = setup();
    const event = requestSent([signer({ signer_ref: 'a' })]);
    await run(event);
    const again = await run(event);
    assert.deepEqual(tags(again), ['a/email:AlreadySettled']);
    assert.equal(email.sent.length, 1);
    assert.equal(db.events.length, 1);
    assert.equal(needsRetry(again), false);
  });

  it('retries only the message that failed transiently, not the ones already accepted', async () => {
    const { email, db, run } = setup();
    const a = signer({ signer_ref: 'a', email: 'a@example.com' });
    const b = signer({ signer_ref: 'b', email: 'b@example.com' });
    email.answer((m) =>
      m.to === 'b@example.com'
        ? E.left({ _tag: 'Transient', error: '421 try later' })
        : E.right({ providerMessageId: 'ok' }),
    );
    const event = requestSent([a, b]);
    const first = await run(event);
    assert.deepEqual(tags(first), ['a/email:Delivered', 'b/email:WillRetry']);
    assert.ok(needsRetry(first));
    assert.equal(db.row({ eventId: event.id, signerRef: 'b', channel: 'email' })?.status, 'retrying');

    email.answer(() => E.right({ providerMessageId: 'ok' }));
    const second = await run(event);
    assert.deepEqual(tags(second), ['a/email:AlreadySettled', 'b/email:Delivered']);
    assert.deepEqual(
      email.sent.map((m) => m.to),
      ['a@example.com', 'b@example.com', 'b@example.com'],
    );
    assert.equal(db.row({ eventId: event.id, signerRef: 'b', channel: 'email' })?.attempts, 2);
  });

  it('records a permanent refusal as failed at once and reports it', async () => {
    const { sms, db, run } = setup();
    sms.answer(() => E.left({ _tag: 'Permanent', error: 'Twilio 400 error 21211: invalid To' }));
    const report = await run(
      requestSent([
        signer({
          signer_ref: 'a',
          email: null,
          mobile_number: '12025550101',
          send_to: { email: false, mobile_number: true },
        }),
      ]),
    );
    assert.deepEqual(tags(report), ['a/sms:Failed']);
    assert.equal(needsRetry(report), false);
    assert.equal(db.events[0]?.type, 'notification.failed');
    assert.match(db.events[0]?.data.error ?? '', /21211/);
    assert.equal(db.events[0]?.data.permanent, true, 'about this message: the sender may read why');
  });

  it('on the last attempt records a transient failure as failed, with how many attempts were made', async () => {
    const { email, db, run } = setup();
    email.answer(() => E.left({ _tag: 'Transient', error: 'connection refused' }));
    const event = requestSent([signer({ signer_ref: 'a' })]);
    await run(event);
    await run(event);
    const last = await run(event, true);
    assert.deepEqual(tags(last), ['a/email:Failed']);
    assert.equal(needsRetry(last), false);
    assert.equal(db.events[0]?.data.error, 'gave up after 3 attempts: connection refused');
    assert.equal(db.events[0]?.data.permanent, undefined, 'an outage of ours, not the recipient’s');
  });

  it('refuses an SMS to a non-US number without calling the provider', async () => {
    const { sms, db, run } = setup();
    const report = await run(
      requestSent([
        signer({
          signer_ref: 'a',
          mobile_number: '+447700900123',
          send_to: { email: false, mobile_number: true },
        }),
      ]),
    );
    assert.deepEqual(tags(report), ['a/sms:Failed']);
    assert.equal(sms.sent.length, 0);
    assert.equal(db.events[0]?.type, 'notification.failed');
  });

  it('leaves a message another worker is sending to that worker, and looks again later', async () => {
    const { db, email, run } = setup();
    const event = requestSent([signer({ signer_ref: 'a' })]);
    await db.store.claim({
      key: { eventId: event.id, signerRef: 'a', channel: 'email' },
      requestId: 'rq_1',
      signerId: 'x',
      recipient: 'x',
      siteId: event.site_id,
      address: 'x',
      leaseMs: 60_000,
    })();
    const busy = await run(event);
    assert.deepEqual(tags(busy), ['a/email:Busy']);
    assert.ok(needsRetry(busy));
    assert.equal(email.sent.length, 0);
    // The other worker crashed: once its lease ends the message is ours to send.
    db.advance(60_001);
    assert.deepEqual(tags(await run(event)), ['a/email:Delivered']);
  });

  it('treats a sender that throws as a transient failure, releasing the message', async () => {
    const { email, db, run } = setup();
    email.answer(() => 'throw');
    const event = requestSent([signer({ signer_ref: 'a' })]);
    assert.deepEqual(tags(await run(event)), ['a/email:WillRetry']);
    assert.equal(db.row({ eventId: event.id, signerRef: 'a', channel: 'email' })?.status, 'retrying');
  });

  it('fails the pass when the store is unreachable, so the whole event is retried', async () => {
    const { db, run, email } = setup();
    db.setDown(true);
    await assert.rejects(run(requestSent([signer()])), /connection refused/);
    assert.equal(email.sent.length, 0);
  });

  it('records the outcome of a message that went out once the store is back, rather than sending it again', async () => {
    const { db, email, run, pauses, whenPaused } = setup();
    // The store fails right after the provider accepted the message, for three tries.
    email.answer(() => {
      db.setDown(true);
      return E.right({ providerMessageId: 'accepted' });
    });
    whenPaused(() => pauses.length === 3 && db.setDown(false));
    const event = requestSent([signer({ signer_ref: 'a' })]);
    const report = await run(event);
    assert.deepEqual(tags(report), ['a/email:Delivered']);
    assert.deepEqual(pauses, [100, 200, 400]);
    assert.equal(db.row({ eventId: event.id, signerRef: 'a', channel: 'email' })?.status, 'delivered');
    assert.equal(db.events.length, 1);
    assert.equal(email.sent.length, 1);
  });

  it('waits for the store only within half the lease, then leaves the message to be retried', async () => {
    const { db, email, run, pauses } = setup();
    email.answer(() => {
      db.setDown(true);
      return E.right({ providerMessageId: 'accepted' });
    });
    await assert.rejects(run(requestSent([signer({ signer_ref: 'a' })])), /connection refused/);
    assert.deepEqual(pauses, settleRetryDelays(60_000));
    assert.ok(pauses.reduce((a, b) => a + b, 0) <= 30_000);
    assert.equal(email.sent.length, 1);
  });

  it('gives each message a stable idempotency key', async () => {
    const { email, run } = setup();
    const event = requestSent([signer({ signer_ref: 'a' })]);
    await run(event);
    assert.equal(email.sent[0]?.idempotencyKey, `${event.id}/a/email`);
  });
});
