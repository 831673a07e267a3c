import * as t from 'io-ts';
import type { Operation } from './operation.js';

/**
 * What Twilio posts about an SMS it accepted (twilio.com/docs/messaging/guides/track-outbound-message-status):
 * the fields the notifier reads; Twilio sends more, which are signed with them and left.
 */
export const TwilioStatusCallback = t.intersection(
  [
    t.type({ MessageSid: t.string, MessageStatus: t.string }),
    t.partial({ ErrorCode: t.string, AccountSid: t.string, To: t.string, From: t.string }),
  ],
  'TwilioStatusCallback',
);

/** The messaging providers' reports, served by the notifier through the gateway (ADR 3880). */
export const CALLBACK_OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/callbacks/twilio/sms-status',
    operationId: 'reportSmsStatus',
    summary: 'Twilio’s report on an SMS it accepted',
    description:
      'The address `TWILIO_STATUS_CALLBACK_URL` gives Twilio with each SMS. A form signed with the ' +
      'account’s auth token (`X-Twilio-Signature`, over this address and the form). `undelivered` or ' +
      '`failed` makes the message failed after all: `notification.failed`, the signer’s SMS status, the ' +
      'Request’s history and `request.delivery_failed`, with Twilio’s error code in words when it is about ' +
      'the recipient’s number. Other statuses change nothing. Served only while Twilio sends the SMS and ' +
      'the address is set; not for API clients.',
    tag: 'Provider callbacks',
    auth: 'public',
    body: { codec: TwilioStatusCallback, contentType: 'application/x-www-form-urlencoded' },
    responses: { 204: { description: 'Recorded, or nothing to record.' } },
    problems: [
      'signature_invalid',
      'invalid_body',
      'payload_too_large',
      'unsupported_media_type',
      'not_found',
    ],
  },
];
