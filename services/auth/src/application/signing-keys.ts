import * as E from 'fp-ts/lib/Either.js';
import type * as T from 'fp-ts/lib/Task.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { JwkSet } from '@esign/contracts';
import type { AuthError } from '../domain/errors.js';
import { keysOtherThan, publishedKeys, signingKeyAt } from '../domain/signing-keys.js';
import type { StoredKey } from '../ports/signing-keys.js';
import type { Deps } from './deps.js';
import { ensureSigningKey } from './ensure-signing-key.js';

/** `GET /.well-known/jwks.json`: every key a verifier may meet now. */
export const publishKeys =
  (deps: Deps): T.Task<JwkSet> =>
  async () => {
    const now = deps.clock.now();
    let keys = await deps.keys.list()();
    if (signingKeyAt(keys, now) === undefined) {
      await ensureSigningKey(deps)();
      keys = await deps.keys.list()();
    }
    return { keys: publishedKeys(keys, now).map((k) => k.publicJwk) };
  };

export interface Rotation {
  readonly key: StoredKey;
  readonly revoked: readonly string[];
}

/**
 * Makes a new signing key. It is published at once and starts signing after
 * `activateInSeconds`, which gives verifiers' caches time to learn it; the key it
 * replaces keeps verifying until the last token it signed has expired. With
 * `revokePrevious` (a suspected leak) the new key signs at once and every other key is
 * withdrawn, with all the tokens they signed.
 */
export const rotateSigningKey =
  (deps: Deps) =>
  (input: {
    readonly activateInSeconds: number;
    readonly revokePrevious: boolean;
  }): TE.TaskEither<AuthError, Rotation> =>
  async () => {
    const now = deps.clock.now();
    const activatesAt = input.revokePrevious ? now : new Date(now.getTime() + input.activateInSeconds * 1000);
    const generated = await deps.keyGenerator.generate()();
    await deps.keys.insert(generated, now, activatesAt)();
    const key: StoredKey = {
      ...generated,
      createdAt: now,
      activatesAt,
      revokedAt: null,
      lastTokenExpiresAt: null,
    };
    let revoked: string[] = [];
    if (input.revokePrevious) {
      revoked = keysOtherThan(await deps.keys.list()(), key.kid).map((k) => k.kid);
      await deps.keys.revoke(revoked, now)();
    }
    return E.right({ key, revoked });
  };
