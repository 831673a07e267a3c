import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { signingKeyAt } from '../domain/signing-keys.js';
import type { StoredKey } from '../ports/signing-keys.js';
import type { Deps } from './deps.js';

/**
 * The key that signs now, made on the spot when there is none (a fresh database): the
 * first key has no verifier to warn in advance, so it is active at once.
 */
export const ensureSigningKey = (deps: Deps): TE.TaskEither<never, StoredKey> => {
  const now = deps.clock.now();
  return pipe(
    deps.keys.list(),
    TE.flatMap((keys) => {
      const current = signingKeyAt(keys, now);
      return current !== undefined ? TE.right(current) : firstKey(deps, now);
    }),
  );
};

const firstKey = (deps: Deps, now: Date): TE.TaskEither<never, StoredKey> =>
  pipe(
    deps.keyGenerator.generate(),
    TE.tap((key) => deps.keys.insert(key, now, now)),
    TE.map((key) => ({
      ...key,
      createdAt: now,
      activatesAt: now,
      revokedAt: null,
      lastTokenExpiresAt: null,
    })),
  );
