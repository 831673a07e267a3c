import assert from 'node:assert/strict';
import { exhausted, outcomeEvent, planDeliveries } from '../../src/domain/delivery.js';
import { NotificationDelivered, NotificationFailed } from '@esign/contracts';
import { requestSent, signer } from '../support/events.js';

describe('notifier domain: which messages an event asks for', () => {
  it('e-mails and texts each signer exactly as send_to selects', () => {
    const both = signer({ mobile_number: '12025550101', send_to: { email: true, mobile_number: true } });
    const emailOnly = signer();
    const smsOnly = signer({ mobile_number: '12025550102', send_to: { email: false, mobile_number: true } });
    const neither = signer({ send_to: { email: false, mobile_number: false } });
    const plan = planDeliveries(requestSent([both, emailOnly, smsOnly, neither]));
    assert.deepEqual(
      plan.map((t) => [t._tag, t.signer.signer_ref, t.key.channel, t.recipient]),
      [
        ['Send', both.signer_ref, 'email', both.email],
        ['Send', both.signer_ref, 'sms', '+12025550101'],
        ['Send', emailOnly.signer_ref, 'email', emailOnly.email],
        ['Send', smsOnly.signer_ref, 'sms', '+12025550102'],
      ],
    );
  });

  it('sends no e-mail to a signer known only by a mobile number or a GUID, whatever send_to says', () => {
    const mobileOnly = signer({
      signer_id: '2025550103',
      email: null,
      mobile_number: '12025550103',
      send_to: { email: true, mobile_number: true },
    });
    const guid = signer({ signer_id: '6f1c2f9e-3d5b-4a8e-9d61-0c7a4b1e2f3a', email: null });
    const plan = planDeliveries(requestSent([mobileOnly, guid]));
    assert.deepEqual(
      plan.map((t) => [t.signer.signer_ref, t.key.channel]),
      [[mobileOnly.signer_ref, 'sms']],
    );
  });

  it('refuses an SMS to a number outside the US instead of trying it', () => {
    const abroad = signer({ mobile_number: '+447700900123', send_to: { email: false, mobile_number: true } });
    const [target] = planDeliveries(requestSent([abroad]));
    assert.equal(target?._tag, 'Refuse');
    assert.match(target?._tag === 'Refuse' ? target.reason : '', /US mobile number/);
  });

  it('MEDIUM 6: refuses an SMS to a Canadian or Caribbean +1 number stored before the check, without trying it', () => {
    for (const [number, country] of [
      ['14165550123', 'Canada'],
      ['+1 876 555 0123', 'Jamaica'],
    ] as const) {
      const abroad = signer({ mobile_number: number, send_to: { email: false, mobile_number: true } });
      const [target] = planDeliveries(requestSent([abroad]));
      assert.equal(target?._tag, 'Refuse', number);
      assert.match(target?._tag === 'Refuse' ? target.reason : '', new RegExp(country), number);
    }
  });

  it('refuses an e-mail address a mailer could read as several recipients', () => {
    const sneaky = signer({ email: 'a@example.com, everyone@example.com' });
    assert.equal(planDeliveries(requestSent([sneaky]))[0]?._tag, 'Refuse');
  });

  it('refuses a message whose Execution URL is not http(s), so no link can carry a script', () => {
    const bad = signer({ request_url: 'javascript:alert(1)' });
    assert.equal(planDeliveries(requestSent([bad]))[0]?._tag, 'Refuse');
  });

  it('keys each message by event, signer and channel, and reaches a signer listed twice once', () => {
    const s = signer();
    const event = requestSent([s, { ...s }]);
    const plan = planDeliveries(event);
    assert.equal(plan.length, 1);
    assert.deepEqual(plan[0]?.key, { eventId: event.id, signerRef: s.signer_ref, channel: 'email' });
  });

  it('reports outcomes as notification events that the contracts accept', () => {
    const s = signer();
    const event = requestSent([s]);
    const [target] = planDeliveries(event);
    const at = new Date('2025-03-01T10:00:05.000Z');
    const delivered = outcomeEvent(
      event,
      target!,
      { _tag: 'Delivered', providerMessageId: 'm1' },
      'a4f0c1de-0d2b-4c1e-9a7e-2b7f0c9d1e11',
      at,
    );
    const failed = outcomeEvent(
      event,
      target!,
      exhausted(3, 'SMTP 421'),
      'b4f0c1de-0d2b-4c1e-9a7e-2b7f0c9d1e11',
      at,
    );
    assert.ok(NotificationDelivered.is(delivered));
    assert.ok(NotificationFailed.is(failed));
    assert.deepEqual(delivered.data, {
      request_id: 'rq_1',
      cause_event_id: event.id,
      signer_id: s.signer_id,
      signer_ref: s.signer_ref,
      channel: 'email',
      to: s.email,
      provider_message_id: 'm1',
    });
    assert.equal(failed.data.error, 'gave up after 3 attempts: SMTP 421');
    assert.equal(failed.site_id, 7);
    assert.equal(failed.test_mode, undefined);
  });

  it('marks the reports about a test-mode Request’s messages like its other events (ADR 3180)', () => {
    const event = { ...requestSent([signer()]), test_mode: true as const };
    const [target] = planDeliveries(event);
    const report = outcomeEvent(
      event,
      target!,
      exhausted(1, 'refused'),
      'c4f0c1de-0d2b-4c1e-9a7e-2b7f0c9d1e11',
      new Date(),
    );
    assert.ok(NotificationFailed.is(report));
    assert.equal(report.test_mode, true);
  });
});
