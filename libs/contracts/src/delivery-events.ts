// What the notifier reports about each message it was asked to send, and what a client is
// told of a failure (ADR 3180).
import * as t from 'io-ts';
import { envelope } from './event-envelope.js';

export const NotificationChannel = t.keyof({ email: null, sms: null }, 'NotificationChannel');
export type NotificationChannel = t.TypeOf<typeof NotificationChannel>;

const NotificationOutcome = t.intersection([
  t.type({
    request_id: t.string,
    /** The id of the event (request.sent, request.reminded, request.turn_started) that asked for the message. */
    cause_event_id: t.string,
    signer_id: t.string,
    signer_ref: t.string,
    channel: NotificationChannel,
  }),
  t.partial({
    provider_message_id: t.string,
    error: t.string,
    /** Why a message was not sent, when the notifier refused it itself (ADR 1320). */
    reason: t.keyof({ quota_exceeded: null }),
    /**
     * The address the message was for, as the cause named it (the signer's `email` or
     * `mobile_number`): a report about an address the sender has since corrected is not
     * about the signer any more (ADR 3140). Absent from older notifiers' reports.
     */
    to: t.string,
    /**
     * The failure is about this message or recipient (an SMTP 5xx to the recipient or the
     * message, a Twilio 4xx, an address the notifier refused), not an outage or our own
     * configuration: `error` may be shown to the Request's sender (ADR 3180). Absent from
     * retries that ran out, and from older notifiers' reports.
     */
    permanent: t.literal(true),
  }),
]);

/** The provider accepted a message for one signer on one channel. */
export const NotificationDelivered = envelope('notification.delivered', NotificationOutcome);
export type NotificationDelivered = t.TypeOf<typeof NotificationDelivered>;

/** A message could not be delivered: a permanent refusal, or retries exhausted. */
export const NotificationFailed = envelope('notification.failed', NotificationOutcome);
export type NotificationFailed = t.TypeOf<typeof NotificationFailed>;

/**
 * A message to a signer could not be delivered, and that is now their status on its
 * channel (`notifications.email` or `notifications.sms` on `GET /v1.1/requests/:id`):
 * `failed` (refused by the provider, or retries exhausted) or `quota_exceeded` (not sent:
 * a daily quota was used up, ADR 1320). Published by the requests service in the
 * statement that records the report, only when the report became the signer's status: not
 * for a duplicate, a report older than the one recorded, or one about an address the
 * sender has since corrected (ADR 3140). `to`: the address it was for, when the notifier
 * said; `error`: why, in the provider's words when it refused this message for this
 * recipient, or the quota's; null when the retries ran out (an outage of ours, whose
 * details are not the client's).
 */
export const RequestDeliveryFailed = envelope(
  'request.delivery_failed',
  t.intersection([
    t.type({
      request_id: t.string,
      signer_id: t.string,
      signer_ref: t.string,
      channel: NotificationChannel,
      status: t.keyof({ failed: null, quota_exceeded: null }),
      error: t.union([t.string, t.null]),
      failed_at: t.string,
    }),
    t.partial({ to: t.string }),
  ]),
);
export type RequestDeliveryFailed = t.TypeOf<typeof RequestDeliveryFailed>;
