import * as t from 'io-ts';
import { RequestState } from './api.js';
import { envelope } from './event-envelope.js';
import { NotificationData, ReminderFlags } from './notification-data.js';
import { NotificationDelivered, NotificationFailed, RequestDeliveryFailed } from './delivery-events.js';
import { RequestSignerAdded, RequestSignerRemoved, RequestSignerUpdated } from './signer-events.js';
import {
  RequestContractAdded,
  RequestContractRemoved,
  RequestContractsReordered,
} from './contract-events.js';
import {
  ContractArchived,
  ContractCreated,
  ContractDeleted,
  ContractPublished,
  ContractUnarchived,
  ContractUpdated,
} from './template-events.js';

export { dataCodecOf, envelope } from './event-envelope.js';
// The events about one signer of a Request (ADRs 3140, 3280, 3290), a draft's contracts (ADR
// 3300), and a Site's templates (ADR 3350).
export * from './signer-events.js';
export * from './contract-events.js';
export * from './template-events.js';
export { NotifiedSigner, WebhookNotificationData, WebhookRemindedData } from './notification-data.js';

export const RequestCreated = envelope(
  'request.created',
  t.type({
    request_id: t.string,
    state: RequestState,
    contracts: t.array(t.number),
    signer_ids: t.array(t.string),
  }),
);
export type RequestCreated = t.TypeOf<typeof RequestCreated>;

/** The Request was sent: its Execution URLs are live; `signers` are to be told as their `send_to` says. */
export const RequestSent = envelope('request.sent', NotificationData);
export type RequestSent = t.TypeOf<typeof RequestSent>;

/**
 * A reminder: `signers` holds only those who have not signed yet; flagged as
 * `ReminderFlags` says. The invitation of whom a signer asked to sign in their place also
 * says who asked (`asked_by`: their address, else their number) and their `note`, when
 * they wrote one (ADR 3630): for the notifier to word it, never told to clients.
 */
export const RequestReminded = envelope(
  'request.reminded',
  t.intersection([NotificationData, ReminderFlags, t.partial({ asked_by: t.string, note: t.string })]),
);
export type RequestReminded = t.TypeOf<typeof RequestReminded>;

/**
 * A Request signed in order reached the next signing order: `signers` are the signers of
 * `order`, whose Execution URLs are live from now on, to be told as their `send_to` says.
 */
export const RequestTurnStarted = envelope(
  'request.turn_started',
  t.intersection([NotificationData, t.type({ order: t.number })]),
);
export type RequestTurnStarted = t.TypeOf<typeof RequestTurnStarted>;

/**
 * A signer asked for a one-time code (ADR 2001): the notifier sends `code` to the one
 * signer in `signers` on the one channel its `send_to` names. Internal: its routing key
 * is not `request.*`, so it never reaches a webhook.
 */
export const SignerCodeRequested = envelope(
  'signer.code_requested',
  t.intersection([NotificationData, t.type({ code: t.string, code_expires_at: t.string })]),
);
export type SignerCodeRequested = t.TypeOf<typeof SignerCodeRequested>;

/**
 * The sender changed an open Request's expiry or automatic reminders (ADR 3150), or a
 * draft's `render_data` or `fields` (ADR 3220), or another of `PATCH`'s parts (`cc`, `message`,
 * `title`, `subject`, `allow_reassign`): the first three as they are now, the next automatic
 * reminder as scheduled again, and `changed`, what this change changed (absent on events
 * written before ADR 3220: the expiry or the reminders). The values are not repeated:
 * `GET /v1.1/requests/:id` has them.
 */
export const RequestUpdated = envelope(
  'request.updated',
  t.intersection([
    t.type({
      request_id: t.string,
      expires_at: t.union([t.string, t.null]),
      reminder_interval_days: t.union([t.number, t.null]),
      next_reminder_at: t.union([t.string, t.null]),
    }),
    t.partial({
      changed: t.array(
        t.keyof({
          expires_at: null,
          reminder_interval_days: null,
          render_data: null,
          fields: null,
          cc: null,
          message: null,
          title: null,
          subject: null,
          allow_reassign: null,
        }),
      ),
    }),
  ]),
);
export type RequestUpdated = t.TypeOf<typeof RequestUpdated>;

/** A signer opened their live Execution URL for the first time. */
export const RequestViewed = envelope(
  'request.viewed',
  t.type({ request_id: t.string, signer_id: t.string, signer_ref: t.string, viewed_at: t.string }),
);
export type RequestViewed = t.TypeOf<typeof RequestViewed>;

/**
 * The `signer_ref` of the user who created a Request when a notice tells them too (ADR
 * 2003): they travel in `signers` like a signer with an e-mail address, so the notifier's
 * one-message-per-(event, recipient, channel) path, quotas and retries apply unchanged,
 * and their `request_url` is the Request's page in the web application. Real signer
 * references are base64url and never hold `@`.
 */
export const SENDER_REF = '@sender';

/**
 * The `signer_ref` of a Request's `cc[i]` in its completion notice (ADR 3230): `cc.1`,
 * `cc.2`, …, in the order given. It travels in the copy link's `s` as a signer's does, so
 * it is URL-safe; real signer references are base64url and never hold `.`.
 */
export const ccRef = (i: number): string => `cc.${i + 1}`;

/** The index in `cc` a `ccRef` names; undefined for any other reference. */
export const ccIndexOf = (ref: string): number | undefined => {
  const match = /^cc\.([1-9][0-9]{0,2})$/.exec(ref);
  return match === null ? undefined : Number(match[1]) - 1;
};

/**
 * Internal (never a webhook): the Request completed; `signers` are those with an e-mail
 * address, each `request_url` a signed link to their copy of the executed PDF that works
 * until `copy_expires_at` (ADR 2002).
 */
export const NoticeCompleted = envelope(
  'notice.completed',
  t.intersection([NotificationData, t.type({ copy_expires_at: t.string })]),
);
export type NoticeCompleted = t.TypeOf<typeof NoticeCompleted>;

/** Internal (never a webhook): a signer declined; `signers` are the others already told of the Request. */
export const NoticeDeclined = envelope(
  'notice.declined',
  t.intersection([NotificationData, t.type({ declined_by: t.string, reason: t.string })]),
);
export type NoticeDeclined = t.TypeOf<typeof NoticeDeclined>;

/**
 * Internal (never a webhook): the sender cancelled a sent Request and asked for its signers
 * to be told (ADR 3500); `signers` are those who had been told of it, each by the channels
 * they were invited by; `reason` as the cancel gave it, absent when none.
 */
export const NoticeCancelled = envelope(
  'notice.cancelled',
  t.intersection([NotificationData, t.partial({ reason: t.string })]),
);
export type NoticeCancelled = t.TypeOf<typeof NoticeCancelled>;

/**
 * Internal (never a webhook): a sent Request expired before everyone signed (ADR 3520);
 * `signers` is its creating user alone, as `SENDER_REF` with the Request's page as link.
 */
export const NoticeExpired = envelope('notice.expired', NotificationData);
export type NoticeExpired = t.TypeOf<typeof NoticeExpired>;

/**
 * Internal (never a webhook): the sender put someone else in a signer's place (ADR 3550) and
 * the replaced signer had been told of the Request; `signers` is that signer alone, as they
 * were (their `request_url` is the link that no longer opens), by the channels they were
 * invited by.
 */
export const NoticeReplaced = envelope('notice.replaced', NotificationData);
export type NoticeReplaced = t.TypeOf<typeof NoticeReplaced>;

/**
 * Internal (never a webhook): a signer asked someone else to sign in their place (ADR 3560);
 * `signers` is the creating user alone, as `SENDER_REF` with the Request's page as link;
 * `note`: what the signer wrote to whom they asked, when they wrote anything (ADR 3630).
 */
export const NoticeReassigned = envelope(
  'notice.reassigned',
  t.intersection([
    NotificationData,
    t.type({ reassigned_by: t.string, reassigned_to: t.string }),
    t.partial({ note: t.string }),
  ]),
);
export type NoticeReassigned = t.TypeOf<typeof NoticeReassigned>;

/** A Request closed before completion; its Execution URLs no longer work. */
const RequestClosed = t.type({ request_id: t.string, previous_state: RequestState });

/**
 * Cancelled by the client, from draft or sent. `reason`: the one the cancel gave (ADR 3500),
 * absent when none; `signers_notified: true` when the signers who had been told of the
 * Request were told of its cancel, absent otherwise.
 */
export const RequestCancelled = envelope(
  'request.cancelled',
  t.intersection([RequestClosed, t.partial({ reason: t.string, signers_notified: t.literal(true) })]),
);
export type RequestCancelled = t.TypeOf<typeof RequestCancelled>;

/** Its `expires_at` passed while it was a draft or sent. */
export const RequestExpired = envelope('request.expired', RequestClosed);
export type RequestExpired = t.TypeOf<typeof RequestExpired>;

const SignerAct = t.type({ request_id: t.string, signer_id: t.string, signer_ref: t.string });

/** One signer signed (the Request may still wait for others). */
export const RequestSigned = envelope('request.signed', SignerAct);
export type RequestSigned = t.TypeOf<typeof RequestSigned>;

/** Every signer signed. */
export const RequestCompleted = envelope('request.completed', t.type({ request_id: t.string }));
export type RequestCompleted = t.TypeOf<typeof RequestCompleted>;

/** A signer declined, which ends the Request; `reason` is what they wrote (always sent by this version). */
export const RequestDeclined = envelope(
  'request.declined',
  t.intersection([SignerAct, t.partial({ reason: t.string })]),
);
export type RequestDeclined = t.TypeOf<typeof RequestDeclined>;

/** Every row of a bulk send is settled, or left unmade by a cancel (webhook `bulk_send.completed`). */
export const BulkSendCompleted = envelope(
  'bulk_send.completed',
  t.intersection([
    t.type({
      bulk_send_id: t.string,
      rows_total: t.number,
      created: t.number,
      sent: t.number,
      failed: t.number,
    }),
    // Rows left unmade by a cancel, and when (ADR 3450); absent when it was not cancelled.
    t.partial({ cancelled: t.number, cancelled_at: t.string }),
  ]),
);
export type BulkSendCompleted = t.TypeOf<typeof BulkSendCompleted>;

/** Every event this version knows, discriminated by `type`. */
export const DomainEvent = t.union([
  RequestCreated,
  RequestSent,
  RequestReminded,
  RequestTurnStarted,
  SignerCodeRequested,
  RequestViewed,
  RequestSignerUpdated,
  RequestUpdated,
  RequestSignerAdded,
  RequestSignerRemoved,
  RequestContractAdded,
  RequestContractRemoved,
  RequestContractsReordered,
  NoticeCompleted,
  NoticeDeclined,
  NoticeCancelled,
  NoticeExpired,
  NoticeReplaced,
  NoticeReassigned,
  RequestCancelled,
  RequestExpired,
  RequestSigned,
  RequestCompleted,
  RequestDeclined,
  NotificationDelivered,
  NotificationFailed,
  RequestDeliveryFailed,
  BulkSendCompleted,
  ContractCreated,
  ContractUpdated,
  ContractPublished,
  ContractArchived,
  ContractUnarchived,
  ContractDeleted,
]);
export type DomainEvent = t.TypeOf<typeof DomainEvent>;
export type EventType = DomainEvent['type'];
