import * as t from 'io-ts';
import { Page } from './paging.js';
import { nullable } from './primitives.js';
import { TEMPLATE_EVENT_TYPES } from './template-events.js';
import {
  isWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  WebhookPayload,
  type AnyEventEnvelope,
  type WebhookEventType,
} from './webhooks.js';

/**
 * What a client is shown of an event: the body its webhook endpoints receive (ADR 1100),
 * and since ADR 3170 also an entry of the Request's history (`GET /v1.1/requests/:id/events`).
 */
export const clientEventOf = (event: AnyEventEnvelope & { type: WebhookEventType }): WebhookPayload => ({
  id: event.id,
  type: event.type,
  created_at: event.occurred_at,
  site_id: event.site_id,
  data: clientData(event.data),
  ...(event.test_mode === true && { test_mode: true as const }),
});

/**
 * An event's data as a client is told it: only what is the client's to read.
 * - Execution URLs are credentials: a webhook delivery is stored for days and leaves the
 *   platform, and a Request's history is read long after, so signers are shown by
 *   reference (`signer_ref`) without `request_url` (nor the notifier's own `locale`,
 *   ADR 2320); the client reads a URL from `GET /v1.1/requests/:id` when it needs one
 *   (ADR 1321).
 * - The sender's message to the signers (ADR 3380) and the e-mails' subject (ADR 3400)
 *   are the Request's, read with it: not repeated in every invitation and reminder a
 *   client is told of, or its history keeps.
 * - A signer's note to whom they asked to sign in their place, and how that invitation
 *   names them (ADR 3630), are written to that person: `request.signer_updated` tells the
 *   client who asked.
 */
const clientData = (event: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const { message: _message, subject: _subject, note: _note, asked_by: _askedBy, ...data } = event;
  const { signers } = data;
  if (!Array.isArray(signers)) return data;
  return {
    ...data,
    signers: signers.map((s: unknown) => {
      if (typeof s !== 'object' || s === null) return s;
      const { request_url: _url, locale: _locale, ...rest } = s as Record<string, unknown>;
      return rest;
    }),
  };
};

/**
 * Whether `event` belongs in its Request's history (ADR 3170): the `request.*` events a
 * client can subscribe to, but for `request.created` (ADR 3490): the history is what
 * happened to the Request once made, which its `created_at` dates. `bulk_send.completed` is a
 * bulk send's, and the rest (notifications, codes) never reach clients.
 */
export const isRequestHistoryEvent = <E extends AnyEventEnvelope>(
  event: E,
): event is E & { type: WebhookEventType } =>
  event.type.startsWith('request.') && event.type !== 'request.created' && isWebhookEventType(event.type);

/** The types a Request's history, and so a Site's feed, can hold: the `request.*` webhook events but its creation. */
export const REQUEST_HISTORY_TYPES = WEBHOOK_EVENT_TYPES.filter(
  (type) => type.startsWith('request.') && type !== 'request.created',
);

/**
 * Whether `event` is a template event (ADR 3350): a Site's feed holds these too, listed only
 * when asked for by type (ADR 3700).
 */
export const isTemplateEvent = <E extends AnyEventEnvelope>(
  event: E,
): event is E & { type: (typeof TEMPLATE_EVENT_TYPES)[number] } =>
  (TEMPLATE_EVENT_TYPES as readonly string[]).includes(event.type);

/**
 * The types a Site's feed can hold (ADR 3700): its Requests' history types, listed unless
 * `type=` names others, and its templates' events, listed only when `type=` names them.
 */
export const SITE_FEED_TYPES = [...REQUEST_HISTORY_TYPES, ...TEMPLATE_EVENT_TYPES];

/** The order a Request's history is listed in: by when each event happened, `asc` (the default) or `desc`. */
export const HISTORY_ORDERS = ['asc', 'desc'] as const;
export type HistoryOrder = (typeof HISTORY_ORDERS)[number];

/** `GET /v1.1/requests/:id/events`: one page of the Request's history, oldest first unless `order=desc`. */
export const RequestEventList = Page(WebhookPayload);
export type RequestEventList = t.TypeOf<typeof RequestEventList>;

/**
 * `GET /v1.1/sites/:id/events` (ADR 3190): entries of the Site's Requests' histories
 * after a cursor, in the order their changes were stored, or (`order=desc`) before one,
 * newest first. Both cursors are opaque. `next_after` is the one to read newer entries
 * after: the newest entry's answered, or the one asked from when there are none.
 * `next_before` is the one to read older entries before (`order=desc`): the oldest
 * entry's answered, null when there are none.
 */
export const SiteEventFeed = t.type(
  {
    data: t.array(WebhookPayload),
    has_more: t.boolean,
    next_after: t.string,
    next_before: nullable(t.string),
  },
  'SiteEventFeed',
);
export type SiteEventFeed = t.TypeOf<typeof SiteEventFeed>;
