import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EmbeddedTokens } from '../../ports/embedded-session-store.js';

/**
 * 256 random bits per embedded URL, kept only as their SHA-256: a slow KDF adds nothing
 * to that much entropy, and a copy of the table opens nothing.
 */
export const randomEmbeddedTokens: EmbeddedTokens = {
  fresh: () => randomBytes(32).toString('base64url'),
  digest: (token) => createHash('sha256').update(token, 'utf8').digest('hex'),
  sessionId: () => randomUUID(),
};
