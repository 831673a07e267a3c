import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { needsRetry } from '../../src/application/notify-signers.js';
import { requestReminded, requestSent, signer } from '../support/events.js';
import { GENEROUS, setup, tags } from '../support/notify-signers-setup.js';

describe('notifier use case: notify signers, daily message quotas (MEDIUM 6)', () => {
  const textSigner = (ref: string, number: string) =>
    signer({
      signer_ref: ref,
      email: null,
      mobile_number: number,
      send_to: { email: false, mobile_number: true },
    });

  it("MEDIUM 6: does not send past the Site's daily SMS quota and reports why", async () => {
    const { sms, db, run } = setup({ ...GENEROUS, site: { email: 1000, sms: 2 } });
    const report = await run(
      requestSent([
        textSigner('a', '12025550101'),
        textSigner('b', '12025550102'),
        textSigner('c', '12025550103'),
      ]),
    );
    assert.deepEqual(report.messages.map((m) => m.outcome._tag).sort(), ['Delivered', 'Delivered', 'Failed']);
    assert.equal(sms.sent.length, 2);
    const refused = db.events.find((e) => e.type === 'notification.failed');
    assert.equal(refused?.data.reason, 'quota_exceeded');
    assert.match(refused?.data.error ?? '', /Site's daily quota of 2 text messages is used up/);
    assert.equal(needsRetry(report), false, 'a refusal is final: no retry spends the quota again');
  });

  it("MEDIUM 6: does not send past one recipient's daily e-mail quota, across Requests and reminders", async () => {
    const { email, db, run, advanceClock } = setup({ ...GENEROUS, recipient: { email: 2, sms: 100 } });
    const target = (ref: string) => signer({ signer_ref: ref, email: 'victim@example.com' });
    await run(requestSent([target('a')]));
    await run(requestReminded([target('a')]));
    await run(requestSent([target('b')], { request_id: 'rq_2' }));
    assert.equal(email.sent.length, 2);
    const failedEvents = db.events.filter((e) => e.type === 'notification.failed');
    assert.equal(failedEvents.length, 1);
    assert.equal(failedEvents[0]?.data.reason, 'quota_exceeded');
    assert.match(failedEvents[0]?.data.error ?? '', /recipient's daily quota of 2 e-mails/);
    // Another recipient of the same Site is not held back by it.
    await run(requestSent([signer({ signer_ref: 'c', email: 'other@example.com' })]));
    assert.equal(email.sent.length, 3);
    // The allowance comes back through the day (12 hours refill one of two).
    advanceClock(12 * 3600 * 1000);
    await run(requestSent([target('d')]));
    assert.equal(email.sent.length, 4);
  });

  it('MEDIUM 6: charges a message once, however often it is retried', async () => {
    const { email, run } = setup({ ...GENEROUS, recipient: { email: 1, sms: 100 } });
    email.answer(() => E.left({ _tag: 'Transient', error: '421 try later' }));
    const event = requestSent([signer({ signer_ref: 'a', email: 'once@example.com' })]);
    assert.deepEqual(tags(await run(event)), ['a/email:WillRetry']);
    email.answer(() => E.right({ providerMessageId: 'ok' }));
    assert.deepEqual(tags(await run(event)), ['a/email:Delivered']);
  });
});
