import { randomBytes, randomUUID } from 'node:crypto';
import { keyEncryption, textSealer, type KeyEncryptionDomain, type TextSealer } from '@esign/platform';
import type { WebhookRandom } from '../../ports/webhook-runtime.js';

/** Webhook secrets' own sealing keys, derived from KEY_ENCRYPTION_KEYS (ADR 1312). */
export const WEBHOOK_SECRET_ENCRYPTION: KeyEncryptionDomain = {
  salt: 'esign-notifier',
  purpose: 'webhook-secret-encryption',
};

export const webhookSecretSealer = (config: {
  readonly KEY_ENCRYPTION_KEYS: Parameters<typeof keyEncryption>[0];
}): TextSealer => textSealer(keyEncryption(config.KEY_ENCRYPTION_KEYS, WEBHOOK_SECRET_ENCRYPTION));

/** New endpoint secrets, delivery ids and the retry back-off's jitter. */
export const webhookRandom: WebhookRandom = {
  secret: () => `whsec_${randomBytes(32).toString('base64url')}`,
  uuid: randomUUID,
  jitter: Math.random,
};
