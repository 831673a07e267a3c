import type * as T from 'fp-ts/lib/Task.js';
import { signingKeyAt } from '../domain/signing-keys.js';
import type { StoredKey } from '../ports/signing-keys.js';
import type { Deps } from './deps.js';

/**
 * The key that signs now, made on the spot when there is none (a fresh database): the
 * first key has no verifier to warn in advance, so it is active at once.
 */
export const ensureSigningKey =
  (deps: Deps): T.Task<StoredKey> =>
  async () => {
    const now = deps.clock.now();
    const current = signingKeyAt(await deps.keys.list()(), now);
    if (current !== undefined) return current;
    const key = await deps.keyGenerator.generate()();
    await deps.keys.insert(key, now, now)();
    return { ...key, createdAt: now, activatesAt: now, revokedAt: null, lastTokenExpiresAt: null };
  };
