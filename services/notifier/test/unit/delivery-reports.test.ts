import assert from 'node:assert/strict';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { reportOf } from '../../src/adapters/twilio/status-callback.js';
import { recordDeliveryReport } from '../../src/application/record-delivery-report.js';
import type { AcceptedMessage, OutcomeEvent } from '../../src/domain/delivery.js';
import type { DeliveryReports } from '../../src/ports/delivery-reports.js';

const SID = `SM${'0123456789abcdef'.repeat(2)}`;
const MESSAGE: AcceptedMessage = {
  causeEventId: '6b0c3e5e-6f2c-4a53-9d1e-1f6a3b1c2d3e',
  requestId: 'rq_1',
  siteId: 7,
  signerId: '2025550143',
  signerRef: 'sg_1',
  channel: 'sms',
  address: '12025550143',
  providerMessageId: SID,
};

/** The deliveries in memory: one message accepted as SID, told failed at most once. */
const memoryReports = () => {
  const told: OutcomeEvent[] = [];
  const reports: DeliveryReports = {
    undelivered: (sid, channel, _error, report) =>
      TE.fromIO(() => {
        if (sid !== SID || channel !== 'sms' || told.length > 0) return O.none;
        told.push(report(MESSAGE));
        return O.some(MESSAGE);
      }),
  };
  return { reports, told };
};

/** ADR 3880: Twilio's report on an SMS it accepted. */
describe('notifier: a provider’s later report on a message it accepted', () => {
  it('reads a status callback’s form: a failure in words, whether the sender may be told, or nothing to tell', () => {
    assert.deepEqual(reportOf({ MessageSid: SID, MessageStatus: 'undelivered', ErrorCode: '30003' }), {
      providerMessageId: SID,
      channel: 'sms',
      failure: {
        error: 'Twilio undelivered: error 30003 (unreachable destination handset)',
        permanent: true,
      },
    });
    assert.deepEqual(reportOf({ SmsSid: SID, SmsStatus: 'failed', ErrorCode: '30002' }), {
      providerMessageId: SID,
      channel: 'sms',
      failure: { error: 'Twilio failed: error 30002 (account suspended)', permanent: false },
    });
    assert.deepEqual(reportOf({ MessageSid: SID, MessageStatus: 'undelivered', ErrorCode: '39999' }), {
      providerMessageId: SID,
      channel: 'sms',
      failure: { error: 'Twilio undelivered: error 39999', permanent: false },
    });
    for (const status of ['queued', 'sent', 'delivered', 'read'])
      assert.deepEqual(reportOf({ MessageSid: SID, MessageStatus: status }), {
        providerMessageId: SID,
        channel: 'sms',
      });
    assert.equal(reportOf({ MessageStatus: 'delivered' }), 'MessageSid');
    assert.equal(reportOf({ MessageSid: 'SM1', MessageStatus: 'delivered' }), 'MessageSid');
    assert.equal(reportOf({ MessageSid: SID }), 'MessageStatus');
  });

  it('tells a failure as notification.failed of the message, once; nothing else changes anything', async () => {
    const { reports, told } = memoryReports();
    const record = recordDeliveryReport({
      reports,
      clock: { now: () => new Date('2030-01-02T03:04:05Z') },
      ids: { eventId: () => 'c0ffee00-0000-4000-8000-000000000001' },
    });
    const failure = {
      error: 'Twilio undelivered: error 30003 (unreachable destination handset)',
      permanent: true,
    };
    assert.equal(await TE.toUnion(record({ providerMessageId: SID, channel: 'sms' }))(), 'not-a-failure');
    assert.equal(told.length, 0);
    assert.equal(await TE.toUnion(record({ providerMessageId: SID, channel: 'sms', failure }))(), 'recorded');
    assert.equal(await TE.toUnion(record({ providerMessageId: SID, channel: 'sms', failure }))(), 'unknown');
    assert.deepEqual(told, [
      {
        id: 'c0ffee00-0000-4000-8000-000000000001',
        type: 'notification.failed',
        occurred_at: '2030-01-02T03:04:05.000Z',
        site_id: 7,
        aggregate_id: 'rq_1',
        data: {
          request_id: 'rq_1',
          cause_event_id: MESSAGE.causeEventId,
          signer_id: '2025550143',
          signer_ref: 'sg_1',
          channel: 'sms',
          to: '12025550143',
          provider_message_id: SID,
          error: failure.error,
          permanent: true,
        },
      },
    ]);
  });
});
