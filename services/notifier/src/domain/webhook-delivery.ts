import {
  WEBHOOK_EVENT_TYPES,
  clientEventOf,
  isWebhookEventType,
  type AnyEventEnvelope,
  type WebhookEventType,
} from '@esign/contracts';

/** The body every endpoint subscribed to the event receives, serialised once so each attempt sends the same bytes. */
export const webhookPayload = (event: AnyEventEnvelope & { type: WebhookEventType }): string =>
  JSON.stringify(clientEventOf(event));

/** Only the listed `request.*` events reach clients; the rest (request.created, …) are skipped. */
export const deliverable = (
  event: AnyEventEnvelope,
): event is AnyEventEnvelope & { type: WebhookEventType } => isWebhookEventType(event.type);

export { WEBHOOK_EVENT_TYPES };

/** What one attempt came to. */
export type AttemptResult =
  /** The endpoint answered (any status). */
  | {
      readonly _tag: 'Response';
      readonly status: number;
      readonly excerpt: string;
      readonly durationMs: number;
    }
  /** No answer: a timeout, a refused or reset connection, a TLS failure. */
  | { readonly _tag: 'NoResponse'; readonly error: string; readonly durationMs: number }
  /** Not sent: the URL or the address it resolves to is not allowed (SSRF guard), or it does not resolve. */
  | { readonly _tag: 'Refused'; readonly reason: string };

export type Verdict = 'delivered' | 'retry' | 'permanent';

/**
 * 2xx is delivered. Timeouts, connection errors, 5xx, 408 and 429 are worth retrying, and
 * so is a redirect (never followed: the client fixes the URL and the retries get through)
 * and a refused address (DNS may be fixed). Any other 4xx is the receiver saying no to
 * this delivery: retrying would not change its answer.
 */
export const classify = (result: AttemptResult): Verdict => {
  if (result._tag !== 'Response') return 'retry';
  const { status } = result;
  if (status >= 200 && status < 300) return 'delivered';
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return 'permanent';
  return 'retry';
};

export const describeResult = (result: AttemptResult): string => {
  switch (result._tag) {
    case 'Response':
      return `HTTP ${result.status}`;
    case 'NoResponse':
      return result.error;
    case 'Refused':
      return `not sent: ${result.reason}`;
  }
};

export interface RetryPolicy {
  /** Delay after the first failed attempt; it doubles after each further one. */
  readonly baseDelayMs: number;
  /** The doubling stops here. */
  readonly maxDelayMs: number;
  /** No attempt is scheduled later than this after the delivery was created. */
  readonly windowMs: number;
}

/**
 * Exponential back-off with ±25 % jitter (`random` in [0, 1)), so endpoints that failed
 * together are not all retried in the same second.
 */
export const retryDelayMs = (failedAttempts: number, policy: RetryPolicy, random: number): number => {
  const exponential = policy.baseDelayMs * 2 ** Math.min(Math.max(failedAttempts - 1, 0), 40);
  const jittered = Math.min(policy.maxDelayMs, exponential) * (0.75 + 0.5 * random);
  return Math.max(1, Math.round(Math.min(jittered, policy.maxDelayMs * 1.25)));
};

export type NextStep =
  | { readonly _tag: 'Delivered' }
  | { readonly _tag: 'Retry'; readonly at: Date; readonly error: string }
  | { readonly _tag: 'Failed'; readonly error: string };

/** What follows attempt number `attempt` of a delivery created at `createdAt`. */
export const nextStep = (
  result: AttemptResult,
  attempt: number,
  createdAt: Date,
  now: Date,
  policy: RetryPolicy,
  random: number,
): NextStep => {
  const verdict = classify(result);
  if (verdict === 'delivered') return { _tag: 'Delivered' };
  const error = describeResult(result);
  if (verdict === 'permanent') return { _tag: 'Failed', error: `refused by the endpoint: ${error}` };
  const at = new Date(now.getTime() + retryDelayMs(attempt, policy, random));
  if (at.getTime() - createdAt.getTime() > policy.windowMs)
    return { _tag: 'Failed', error: `gave up after ${attempt} attempts: ${error}` };
  return { _tag: 'Retry', at, error };
};

export interface EndpointHealth {
  readonly enabled: boolean;
  /** Start of the current run of failed attempts; null after a success. */
  readonly failingSince: Date | null;
}

export interface HealthUpdate {
  readonly failingSince: Date | null;
  /** Turn the endpoint off now (it has failed without a single success for `disableAfterMs`). */
  readonly disable: boolean;
}

/**
 * An endpoint's failure run: a success ends it, a failure starts it or extends it. An
 * endpoint that has failed every attempt for `disableAfterMs` is turned off (and its
 * site told), rather than retried for ever.
 */
export const healthAfter = (
  health: EndpointHealth,
  delivered: boolean,
  now: Date,
  disableAfterMs: number,
): HealthUpdate => {
  if (delivered) return { failingSince: null, disable: false };
  const failingSince = health.failingSince ?? now;
  return {
    failingSince,
    disable: health.enabled && now.getTime() - failingSince.getTime() >= disableAfterMs,
  };
};

/** The first `maxBytes` of a response body as text, without NULs (Postgres text refuses them). */
export const excerptOf = (bytes: Uint8Array, maxBytes: number): string =>
  new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, maxBytes))
    .replace(/\uFFFD$/, '')
    .replace(/\u0000/g, '');
