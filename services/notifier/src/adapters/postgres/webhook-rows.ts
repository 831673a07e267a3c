import * as t from 'io-ts';
import type { TextSealer } from '@esign/platform';
import { sql } from '@esign/platform/database';
import {
  nullable,
  WebhookAttemptView,
  WebhookDeliveryStatus,
  WebhookDeliveryView,
  WebhookEventType,
} from '@esign/contracts';
import type { WebhookEndpoint } from '../../domain/webhook-endpoint.js';

/** A webhook_endpoints row as `endpointColumns` selects it. */
export const EndpointRow = t.type({
  id: t.string,
  site_id: t.number,
  site_name: t.string,
  url: t.string,
  description: t.string,
  event_types: t.array(WebhookEventType),
  enabled: t.boolean,
  disabled_reason: nullable(t.literal('failing')),
  alert_email: t.string,
  secret: t.string,
  previous_secret: nullable(t.string),
  previous_secret_expires_at: nullable(t.string),
  failing_since: nullable(t.string),
  created_at: t.string,
  updated_at: t.string,
});
export type EndpointRow = t.TypeOf<typeof EndpointRow>;

export const endpointColumns = sql.fragment`
  id, site_id, site_name, url, description, array_to_json(event_types) AS event_types, enabled,
  disabled_reason, alert_email, secret, previous_secret, previous_secret_expires_at, failing_since,
  created_at, updated_at`;

/**
 * Webhook secrets are sealed at rest with the key-encryption key (ADR 1312), bound to
 * their endpoint's id; the domain sees them open.
 */
export const sealSecret = (sealer: TextSealer, endpointId: string, secret: string): string =>
  sealer.seal(secret, `webhook-secret:${endpointId}`);
export const openSecret = (sealer: TextSealer, endpointId: string, stored: string): string =>
  sealer.open(stored, `webhook-secret:${endpointId}`);

export const endpointOfRow =
  (sealer: TextSealer) =>
  (row: EndpointRow): WebhookEndpoint => ({
    id: row.id,
    siteId: row.site_id,
    siteName: row.site_name,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    alertEmail: row.alert_email,
    secret: openSecret(sealer, row.id, row.secret),
    previousSecret: row.previous_secret === null ? null : openSecret(sealer, row.id, row.previous_secret),
    previousSecretExpiresAt: row.previous_secret_expires_at,
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });

/** Columns of webhook_deliveries as the API shows them (`WebhookDeliveryView`). */
export const deliveryColumns = sql.fragment`
  id, endpoint_id, event_id, event_type, status, attempts,
  CASE WHEN status = 'pending' THEN next_attempt_at END AS next_attempt_at,
  last_attempt_at, response_status, response_excerpt, last_error AS error, created_at, settled_at`;

export const DeliveryRow = WebhookDeliveryView;
export const AttemptRow = WebhookAttemptView;
export const DeliveryStatus = WebhookDeliveryStatus;
