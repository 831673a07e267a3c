import { createHmac } from 'node:crypto';
import type { WebhookSignature } from '../../ports/webhook-signature.js';

/**
 * The `Esign-Signature` header: `t=<unix seconds>,v1=<hex>` with one `v1` per secret in
 * force (two during a rotation's overlap, the new one first). Each is HMAC-SHA256, keyed
 * with the secret's text, over `t + "." + body`: the timestamp is signed too, so a
 * receiver that refuses old timestamps refuses a replayed delivery.
 */
export const hmacWebhookSignature: WebhookSignature = (secrets, timestamp, body) =>
  [
    `t=${timestamp}`,
    ...secrets.map(
      (secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
    ),
  ].join(',');
