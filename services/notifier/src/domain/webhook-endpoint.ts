import type { WebhookEndpointView, WebhookEventType } from '@esign/contracts';

/** At most this many endpoints per site: each event fans out to every one of them. */
export const MAX_ENDPOINTS_PER_SITE = 20;

/** One place a site's client application is told about its Requests. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly siteId: number;
  /** The site's name when the endpoint was last written, for the alert e-mail. */
  readonly siteName: string;
  readonly url: string;
  readonly description: string;
  readonly eventTypes: readonly WebhookEventType[];
  readonly enabled: boolean;
  readonly disabledReason: 'failing' | null;
  readonly alertEmail: string;
  readonly secret: string;
  readonly previousSecret: string | null;
  readonly previousSecretExpiresAt: string | null;
  readonly failingSince: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

const inOverlap = (
  endpoint: Pick<WebhookEndpoint, 'previousSecret' | 'previousSecretExpiresAt'>,
  now: Date,
) =>
  endpoint.previousSecret !== null &&
  endpoint.previousSecretExpiresAt !== null &&
  Date.parse(endpoint.previousSecretExpiresAt) > now.getTime();

/** The secrets a delivery is signed with now: the current one, and the previous one during an overlap. */
export const signingSecrets = (
  endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  now: Date,
): string[] =>
  inOverlap(endpoint, now) && endpoint.previousSecret !== null
    ? [endpoint.secret, endpoint.previousSecret]
    : [endpoint.secret];

/**
 * A new secret. The one it replaces keeps signing for `overlapSeconds` (0: not at all),
 * so receivers can switch without losing a delivery. A secret still in an earlier
 * overlap is dropped now: at most two secrets are ever in force.
 */
export const rotateSecret = (
  endpoint: WebhookEndpoint,
  newSecret: string,
  overlapSeconds: number,
  now: Date,
): WebhookEndpoint => ({
  ...endpoint,
  secret: newSecret,
  previousSecret: overlapSeconds > 0 ? endpoint.secret : null,
  previousSecretExpiresAt:
    overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000).toISOString() : null,
  updatedAt: now.toISOString(),
});

export interface EndpointChanges {
  readonly url?: string;
  readonly eventTypes?: readonly WebhookEventType[];
  readonly alertEmail?: string;
  readonly description?: string;
  readonly enabled?: boolean;
}

/**
 * Applies a client's update. Turning an endpoint on again, or pointing it elsewhere,
 * clears its failure run, so the days-of-failures clock starts afresh. `disabledReason`
 * is only ever the notifier's: an endpoint the client turns off has none.
 */
export const updateEndpoint = (
  endpoint: WebhookEndpoint,
  changes: EndpointChanges,
  siteName: string,
  now: Date,
): WebhookEndpoint => {
  const enabled = changes.enabled ?? endpoint.enabled;
  const freshStart =
    (enabled && !endpoint.enabled) || (changes.url !== undefined && changes.url !== endpoint.url);
  return {
    ...endpoint,
    siteName,
    url: changes.url ?? endpoint.url,
    eventTypes: changes.eventTypes ?? endpoint.eventTypes,
    alertEmail: changes.alertEmail ?? endpoint.alertEmail,
    description: changes.description ?? endpoint.description,
    enabled,
    disabledReason: enabled || endpoint.enabled ? null : endpoint.disabledReason,
    failingSince: freshStart ? null : endpoint.failingSince,
    updatedAt: now.toISOString(),
  };
};

/** What the API shows: never a secret. */
export const endpointView = (endpoint: WebhookEndpoint, now: Date): WebhookEndpointView => ({
  id: endpoint.id,
  site_id: endpoint.siteId,
  url: endpoint.url,
  description: endpoint.description,
  event_types: [...endpoint.eventTypes],
  enabled: endpoint.enabled,
  disabled_reason: endpoint.disabledReason,
  alert_email: endpoint.alertEmail,
  failing_since: endpoint.failingSince,
  previous_secret_expires_at: inOverlap(endpoint, now) ? endpoint.previousSecretExpiresAt : null,
  created_at: endpoint.createdAt,
  updated_at: endpoint.updatedAt,
});
