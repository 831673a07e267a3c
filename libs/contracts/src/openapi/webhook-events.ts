import * as t from 'io-ts';
import {
  BulkSendCompleted,
  ContractArchived,
  ContractCreated,
  ContractDeleted,
  ContractPublished,
  ContractUnarchived,
  ContractUpdated,
  dataCodecOf,
  RequestCancelled,
  RequestCompleted,
  RequestDeclined,
  RequestExpired,
  RequestSigned,
  RequestContractAdded,
  RequestContractRemoved,
  RequestContractsReordered,
  RequestCreated,
  RequestSignerAdded,
  RequestSignerRemoved,
  RequestSignerUpdated,
  RequestUpdated,
  RequestViewed,
  WebhookNotificationData,
  WebhookRemindedData,
} from '../events.js';
import { RequestDeliveryFailed } from '../delivery-events.js';
import type { WebhookEventType } from '../webhooks.js';

/** Each event a webhook can deliver, and the codec its `data` is published with. */
const EVENTS: Readonly<Record<WebhookEventType, { readonly data: t.Mixed; readonly when: string }>> = {
  'request.created': {
    data: dataCodecOf(RequestCreated),
    when:
      'A Request was made, as a `draft`: by POST /v1.1/sites/{site_id}/requests, by a copy, or by a row of a ' +
      'bulk send (one event per row). `contracts` and `signer_ids` are as it was made; `request.sent` follows ' +
      'when it is sent. Not kept in the Request’s history, which its `created_at` dates.',
  },
  'request.sent': {
    data: WebhookNotificationData,
    when: 'The Request was sent: its Execution URLs are live (read them from GET /v1.1/requests/{request_id}).',
  },
  'request.signed': { data: dataCodecOf(RequestSigned), when: 'A signer signed.' },
  'request.completed': { data: dataCodecOf(RequestCompleted), when: 'Every signer has signed.' },
  'request.declined': {
    data: dataCodecOf(RequestDeclined),
    when: 'A signer declined, which ends the Request.',
  },
  'request.cancelled': { data: dataCodecOf(RequestCancelled), when: 'The sender cancelled the Request.' },
  'request.expired': { data: dataCodecOf(RequestExpired), when: 'The Request expired unsigned.' },
  'request.reminded': {
    data: WebhookRemindedData,
    when:
      'Signers who have yet to sign were reminded (`signers` lists them); `automatic: true` when the ' +
      "Request's `reminder_interval_days` sent it rather than a call; `readdressed: true` when it carries a " +
      'new link to a signer whose address or number was corrected: an invitation to that address, not a reminder; ' +
      '`last_day: true` when it was sent in the last day before `expires_at` (the expiry warning among them).',
  },
  'request.viewed': {
    data: dataCodecOf(RequestViewed),
    when: 'A signer opened their live Execution URL for the first time (once per signer).',
  },
  'request.signer_updated': {
    data: dataCodecOf(RequestSignerUpdated),
    when:
      'The sender corrected how a signer of a sent Request is reached: their e-mail address, mobile number ' +
      'or channels in this Request; `link_replaced: true` when their Execution URL was replaced. Or changed a ' +
      'draft’s signer’s channels, order, authentication or language. `changed` names what changed. When ' +
      'someone else was put in a signer’s place, `changed` holds `signer_id`: `signer_id` is the new signer and ' +
      '`previous.signer_id` the one replaced; `previous_notified: true` when the one replaced was told, and ' +
      '`corrected_by` is their own `signer_id` when they asked someone else to sign from their page (ADR 3560).',
  },
  'request.updated': {
    data: dataCodecOf(RequestUpdated),
    when:
      "The sender changed an open Request's `expires_at` or `reminder_interval_days`; `next_reminder_at` is " +
      'the next automatic reminder as scheduled again.',
  },
  'request.signer_added': {
    data: dataCodecOf(RequestSignerAdded),
    when: "The sender added a signer to a draft: their details and channels in it. Their Execution URL is in the Request's `signers`.",
  },
  'request.signer_removed': {
    data: dataCodecOf(RequestSignerRemoved),
    when:
      'The sender removed a signer from a draft; `unassigned_fields` names the fields that were theirs and now ' +
      'need a signer before the Request is sent.',
  },
  'request.contract_added': {
    data: dataCodecOf(RequestContractAdded),
    when: 'The sender added a contract to a draft; `added_fields` names the fields it brought, with no signer yet.',
  },
  'request.contract_removed': {
    data: dataCodecOf(RequestContractRemoved),
    when:
      'The sender removed a contract from a draft; `removed_fields` and `removed_render_data` name what went ' +
      'with it (no other contract of the Request has them).',
  },
  'request.contracts_reordered': {
    data: dataCodecOf(RequestContractsReordered),
    when:
      'The sender put a draft’s contracts in a new order; `contracts` lists them all as they now stand. The ' +
      'fields follow the contracts’ order.',
  },
  'request.delivery_failed': {
    data: dataCodecOf(RequestDeliveryFailed),
    when:
      'A message to a signer could not be delivered, and that is now their status on its channel: `failed` ' +
      '(refused, or retries exhausted) or `quota_exceeded` (not sent: a daily quota was used up). Not sent ' +
      'for a report older than the status shown, nor for an address the sender has since corrected.',
  },
  'bulk_send.completed': {
    data: dataCodecOf(BulkSendCompleted),
    when:
      'Every row of a bulk send is settled: its Requests made (and sent), failed, or left unmade by a cancel ' +
      '(`cancelled`, with `cancelled_at`); read GET /v1.1/bulk_sends/{bulk_send_id}.',
  },
  'request.turn_started': {
    data: t.intersection([WebhookNotificationData, t.type({ order: t.number })]),
    when: 'A Request signed in order reached its next `order`: `signers` lists those whose Execution URLs are live now.',
  },
  // A Site's contract templates (ADR 3350): the template as it is after the change.
  'contract.created': {
    data: dataCodecOf(ContractCreated),
    when: 'A template was created, or copied into a new draft (in this Site, from this Site or another).',
  },
  'contract.updated': {
    data: dataCodecOf(ContractUpdated),
    when: 'A draft template’s content was replaced.',
  },
  'contract.published': {
    data: dataCodecOf(ContractPublished),
    when: 'A draft template was published: new Requests may use it.',
  },
  'contract.archived': {
    data: dataCodecOf(ContractArchived),
    when: 'A published template was archived: new Requests may not use it; Requests made with it are unaffected.',
  },
  'contract.unarchived': {
    data: dataCodecOf(ContractUnarchived),
    when: 'An archived template was let back in: new Requests may use it again.',
  },
  'contract.deleted': {
    data: dataCodecOf(ContractDeleted),
    when: 'A template was deleted, a draft or a published one; `data` is the template as it was.',
  },
};

const pascal = (type: string): string =>
  type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

export interface WebhookEvent {
  readonly type: WebhookEventType;
  readonly when: string;
  /** The body of a delivery of this event (`WebhookPayload` with this `type` and its `data`). */
  readonly payload: t.Mixed;
}

export const WEBHOOK_EVENTS: readonly WebhookEvent[] = (
  Object.entries(EVENTS) as [WebhookEventType, (typeof EVENTS)[WebhookEventType]][]
).map(([type, { data, when }]) => ({
  type,
  when,
  payload: t.intersection(
    [
      t.type({ id: t.string, type: t.literal(type), created_at: t.string, site_id: t.number, data }),
      // Only on the events of a test-mode Request (issue #22).
      t.partial({ test_mode: t.literal(true) }),
    ],
    `${pascal(type)}Webhook`,
  ),
}));
