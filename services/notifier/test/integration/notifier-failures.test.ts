import assert from 'node:assert/strict';
import { eventually, type SmtpDouble, type TwilioApiDouble } from '@esign/testing';
import { requestSent, signer } from '../support/events.js';
import { notifierFixture, RETRY_DELAYS } from '../support/notifier-fixture.js';

describe('notifier: e-mail and SMS to signers when a Request is sent (permanent failures and poison messages)', function () {
  const { ctx, unique, mailTo, publish, queues, queueDepth, settled, quiet } = notifierFixture();
  let smtp: SmtpDouble;
  let twilio: TwilioApiDouble;
  before(() => {
    ({ smtp, twilio } = ctx);
  });

  it('records permanent refusals and exhausted retries as failed, and still delivers the rest once', async () => {
    const u = unique();
    const gone = signer({ email: u.email('gone') });
    const invalid = signer({
      email: null,
      mobile_number: u.mobile(1),
      send_to: { email: false, mobile_number: true },
    });
    const down = signer({
      email: null,
      mobile_number: u.mobile(2),
      send_to: { email: false, mobile_number: true },
    });
    const fine = signer({ email: u.email('fine') });
    smtp.refuseRecipient(u.email('gone'), 550, '5.1.1 No such user here');
    twilio.refuse(
      `+${u.mobile(1)}`,
      400,
      21211,
      `The 'To' number +${u.mobile(1)} is not a valid phone number.`,
    );
    twilio.refuse(`+${u.mobile(2)}`, 503, 20503, 'Service Unavailable');
    const parkedBefore = await queueDepth(queues().parked);
    const event = requestSent([gone, invalid, down, fine]);
    await publish(event);

    const reported = await settled(event.id, 4);
    await quiet();
    const byRef = (ref: string) => reported.find((o) => o.data.signer_ref === ref);
    assert.equal(byRef(fine.signer_ref)?.type, 'notification.delivered');
    assert.equal(byRef(gone.signer_ref)?.type, 'notification.failed');
    assert.match(byRef(gone.signer_ref)?.data.error ?? '', /550 5\.1\.1 No such user here/);
    assert.equal(byRef(gone.signer_ref)?.data.permanent, true);
    assert.equal(byRef(invalid.signer_ref)?.type, 'notification.failed');
    assert.match(byRef(invalid.signer_ref)?.data.error ?? '', /21211/);
    assert.equal(byRef(down.signer_ref)?.type, 'notification.failed');
    assert.match(
      byRef(down.signer_ref)?.data.error ?? '',
      new RegExp(`^gave up after ${RETRY_DELAYS.length + 1} attempts: Twilio 503`),
    );
    assert.equal(byRef(down.signer_ref)?.data.permanent, undefined);

    assert.equal(mailTo(u.email('fine')).length, 1, 'the accepted message is not resent by the retries');
    assert.equal(mailTo(u.email('gone')).length, 0);
    assert.equal(
      twilio.requests.filter((r) => r.to === `+${u.mobile(1)}`).length,
      1,
      'a permanent refusal is not retried',
    );
    assert.equal(twilio.requests.filter((r) => r.to === `+${u.mobile(2)}`).length, RETRY_DELAYS.length + 1);
    assert.equal(await queueDepth(queues().parked), parkedBefore, 'a settled event is acked, not parked');
  });

  it('parks a poison message and delivers the next good one', async () => {
    const u = unique();
    const parkedBefore = await queueDepth(queues().parked);
    await publish(undefined, '{not json');
    await publish({ ...requestSent([signer({ email: u.email('never') })]), data: { request_id: 'rq_x' } });
    const good = requestSent([signer({ email: u.email('good') })]);
    await publish(good);

    await settled(good.id, 1);
    await eventually(async () =>
      (await queueDepth(queues().parked)) === parkedBefore + 2 ? true : undefined,
    );
    assert.equal(mailTo(u.email('good')).length, 1);
    assert.equal(mailTo(u.email('never')).length, 0);
  });
});
