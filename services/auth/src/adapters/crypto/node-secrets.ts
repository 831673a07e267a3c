import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Secrets } from '../../ports/secrets.js';

export const nodeSecrets: Secrets = {
  uuid: () => randomUUID(),
  newSecret: (prefix) => `${prefix}${randomBytes(32).toString('base64url')}`,
  // SHA-256 suffices for 256-bit random secrets: there is nothing to brute-force.
  fingerprint: (secret) => createHash('sha256').update(secret, 'utf8').digest(),
  pkceChallenge: (verifier) =>
    Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'), 'ascii'),
  same: (a, b) => a.length === b.length && timingSafeEqual(a, b),
};
