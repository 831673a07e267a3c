import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { Page } from './paging.js';
import { isUuid } from './ids.js';
import { TEMPLATE_EVENT_TYPES } from './template-events.js';
import {
  boundedString,
  Email,
  nullable,
  parseSafeHttpUrl,
  partialUpdate,
  refine,
  strict,
  transform,
} from './primitives.js';

/**
 * Webhooks: what a site's client application is told, and the API that manages its
 * endpoints (`/v1.1/sites/:id/webhooks…`, served by the notifier).
 */

/** The events a client can subscribe to. Nothing else (notification.*, internal events) is ever delivered. */
export const WEBHOOK_EVENT_TYPES = [
  'request.created',
  'request.sent',
  'request.signed',
  'request.completed',
  'request.declined',
  'request.cancelled',
  'request.expired',
  'request.reminded',
  'request.turn_started',
  'request.viewed',
  'request.signer_updated',
  'request.updated',
  'request.signer_added',
  'request.signer_removed',
  'request.contract_added',
  'request.contract_removed',
  'request.contracts_reordered',
  'request.delivery_failed',
  'bulk_send.completed',
  ...TEMPLATE_EVENT_TYPES,
] as const;

export const WebhookEventType = t.keyof(
  Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, null])) as Record<
    (typeof WEBHOOK_EVENT_TYPES)[number],
    null
  >,
  'WebhookEventType',
);
export type WebhookEventType = t.TypeOf<typeof WebhookEventType>;

export const isWebhookEventType = (type: string): type is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);

/**
 * Any `request.*` event, read only as far as the envelope: the webhook fan-out does not
 * depend on each event's own codec, so a new request event needs no change here.
 */
export const AnyEventEnvelope = t.intersection(
  [
    t.type({
      id: refine(t.string, (s): s is string => isUuid(s), 'must be a UUID', 'Uuid'),
      type: t.string,
      occurred_at: t.string,
      site_id: t.number,
      aggregate_id: t.string,
      data: t.UnknownRecord,
    }),
    /** Present on the events of a test-mode Request (issue #22). */
    t.partial({ test_mode: t.literal(true) }),
  ],
  'AnyEventEnvelope',
);
export type AnyEventEnvelope = t.TypeOf<typeof AnyEventEnvelope>;

/** The JSON body of every delivery. `id` is the event's id: the same in every retry of it. */
export const WebhookPayload = t.intersection(
  [
    t.type({
      id: t.string,
      type: WebhookEventType,
      created_at: t.string,
      site_id: t.number,
      data: t.UnknownRecord,
    }),
    /** `true` on every event of a test-mode Request (issue #22); absent on real ones. */
    t.partial({ test_mode: t.literal(true) }),
  ],
  'WebhookPayload',
);
export type WebhookPayload = t.TypeOf<typeof WebhookPayload>;

/** `Esign-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]`: HMAC-SHA256 of `t + "." + body`. */
export const WEBHOOK_SIGNATURE_HEADER = 'esign-signature';
export const WEBHOOK_EVENT_TYPE_HEADER = 'esign-event-type';
export const WEBHOOK_DELIVERY_ID_HEADER = 'esign-delivery-id';
/** Receivers refuse a signature older (or further in the future) than this. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * An absolute http(s) URL without credentials or fragment. Whether plain http and the
 * address it names are acceptable is decided by the notifier (configuration and DNS).
 */
export const WebhookUrl = transform(
  t.string,
  (s) => {
    const parsed = parseSafeHttpUrl(s.trim());
    if (E.isLeft(parsed)) return parsed;
    const url = new URL(parsed.right);
    if (url.hash !== '') return E.left('must not have a fragment (#…)');
    if (url.hostname === '') return E.left('must name a host');
    return E.right(url.toString());
  },
  (s) => s,
  (u): u is string => typeof u === 'string',
  'WebhookUrl',
);

/** One or more event types; a type listed twice counts once. Kept in the canonical order. */
export const WebhookEventTypes = transform(
  t.array(WebhookEventType),
  (types) =>
    types.length === 0
      ? E.left('must contain at least one event type')
      : E.right(WEBHOOK_EVENT_TYPES.filter((type) => types.includes(type))),
  (types) => types,
  (u): u is WebhookEventType[] => Array.isArray(u),
  'WebhookEventTypes',
);

export const WebhookDescription = boundedString(0, 255, 'WebhookDescription');

export const CreateWebhookEndpointBody = strict(
  { url: WebhookUrl, event_types: WebhookEventTypes, alert_email: Email },
  { description: WebhookDescription, enabled: t.boolean },
  'CreateWebhookEndpointBody',
);
export type CreateWebhookEndpointBody = t.TypeOf<typeof CreateWebhookEndpointBody>;

/** A partial update; an empty body is refused rather than answered as a silent no-op. */
export const UpdateWebhookEndpointBody = partialUpdate(
  {
    url: WebhookUrl,
    event_types: WebhookEventTypes,
    alert_email: Email,
    description: WebhookDescription,
    enabled: t.boolean,
  },
  'UpdateWebhookEndpointBody',
);
export type UpdateWebhookEndpointBody = t.TypeOf<typeof UpdateWebhookEndpointBody>;

/** The longest overlap a rotation may ask for: 7 days. */
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 24 * 3600;
export const DEFAULT_SECRET_OVERLAP_SECONDS = 24 * 3600;

export const RotateWebhookSecretBody = strict(
  {},
  {
    /** How long deliveries stay signed with the previous secret too (0 ends it now). */
    overlap_seconds: refine(
      t.number,
      (n): n is number => Number.isSafeInteger(n) && n >= 0 && n <= MAX_SECRET_OVERLAP_SECONDS,
      `must be an integer from 0 to ${MAX_SECRET_OVERLAP_SECONDS}`,
      'OverlapSeconds',
    ),
  },
  'RotateWebhookSecretBody',
);
export type RotateWebhookSecretBody = t.TypeOf<typeof RotateWebhookSecretBody>;

export const WebhookEndpointView = t.type(
  {
    id: t.string,
    site_id: t.number,
    url: t.string,
    description: t.string,
    event_types: t.array(WebhookEventType),
    enabled: t.boolean,
    /** Why the notifier turned it off (`failing`: no successful delivery for too long), else null. */
    disabled_reason: nullable(t.literal('failing')),
    alert_email: t.string,
    /** Start of the current run of failed attempts, null while the endpoint is healthy. */
    failing_since: nullable(t.string),
    /** Until when deliveries are also signed with the previous secret, null outside a rotation. */
    previous_secret_expires_at: nullable(t.string),
    created_at: t.string,
    updated_at: t.string,
  },
  'WebhookEndpointView',
);
export type WebhookEndpointView = t.TypeOf<typeof WebhookEndpointView>;

/** The answer to create and rotate: the only time the secret is shown. */
export const WebhookEndpointWithSecret = t.intersection(
  [WebhookEndpointView, t.type({ secret: t.string })],
  'WebhookEndpointWithSecret',
);
export type WebhookEndpointWithSecret = t.TypeOf<typeof WebhookEndpointWithSecret>;

export const WebhookEndpointList = Page(WebhookEndpointView);
export type WebhookEndpointList = t.TypeOf<typeof WebhookEndpointList>;

export const WebhookDeliveryStatus = t.keyof(
  { pending: null, sending: null, delivered: null, failed: null },
  'WebhookDeliveryStatus',
);
export type WebhookDeliveryStatus = t.TypeOf<typeof WebhookDeliveryStatus>;

export const WebhookDeliveryView = t.type(
  {
    id: t.string,
    endpoint_id: t.string,
    event_id: t.string,
    event_type: WebhookEventType,
    status: WebhookDeliveryStatus,
    attempts: t.number,
    next_attempt_at: nullable(t.string),
    last_attempt_at: nullable(t.string),
    /** The HTTP status of the last answer, null when there was none (timeout, refused, not tried yet). */
    response_status: nullable(t.number),
    /** The first bytes (at most 1 KB) of the last answer's body. */
    response_excerpt: nullable(t.string),
    error: nullable(t.string),
    created_at: t.string,
    settled_at: nullable(t.string),
  },
  'WebhookDeliveryView',
);
export type WebhookDeliveryView = t.TypeOf<typeof WebhookDeliveryView>;

export const WebhookAttemptView = t.type(
  {
    attempt: t.number,
    started_at: t.string,
    finished_at: nullable(t.string),
    outcome: nullable(t.keyof({ delivered: null, retry: null, failed: null })),
    response_status: nullable(t.number),
    response_excerpt: nullable(t.string),
    error: nullable(t.string),
    duration_ms: nullable(t.number),
  },
  'WebhookAttemptView',
);
export type WebhookAttemptView = t.TypeOf<typeof WebhookAttemptView>;

export const WebhookDeliveryDetail = t.intersection(
  [WebhookDeliveryView, t.type({ attempt_history: t.array(WebhookAttemptView) })],
  'WebhookDeliveryDetail',
);
export type WebhookDeliveryDetail = t.TypeOf<typeof WebhookDeliveryDetail>;

export const WebhookDeliveryList = Page(WebhookDeliveryView);
export type WebhookDeliveryList = t.TypeOf<typeof WebhookDeliveryList>;
