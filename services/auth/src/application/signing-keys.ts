import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { SIGNING_KEYS_WITHDRAWN, type JwkSet } from '@esign/contracts';
import type { AuthError } from '../domain/errors.js';
import { keysOtherThan, publishedKeys, signingKeyAt } from '../domain/signing-keys.js';
import type { StoredKey } from '../ports/signing-keys.js';
import type { Deps } from './deps.js';
import { ensureSigningKey } from './ensure-signing-key.js';

/** `GET /.well-known/jwks.json`: every key a verifier may meet now. */
export const publishKeys = (deps: Deps): TE.TaskEither<never, JwkSet> => {
  const now = deps.clock.now();
  return pipe(
    deps.keys.list(),
    TE.flatMap((keys) =>
      signingKeyAt(keys, now) === undefined
        ? pipe(
            ensureSigningKey(deps),
            TE.flatMap(() => deps.keys.list()),
          )
        : TE.right(keys),
    ),
    TE.map((keys) => ({ keys: publishedKeys(keys, now).map((k) => k.publicJwk) })),
  );
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
  }): TE.TaskEither<AuthError, Rotation> => {
    const now = deps.clock.now();
    const activatesAt = input.revokePrevious ? now : new Date(now.getTime() + input.activateInSeconds * 1000);
    return pipe(
      deps.keyGenerator.generate(),
      TE.tap((generated) => deps.keys.insert(generated, now, activatesAt)),
      TE.map((generated): StoredKey => ({
        ...generated,
        createdAt: now,
        activatesAt,
        revokedAt: null,
        lastTokenExpiresAt: null,
      })),
      TE.flatMap((key) =>
        pipe(
          input.revokePrevious ? revokeAllBut(deps, key.kid, now) : TE.right([]),
          TE.map((revoked) => ({ key, revoked })),
        ),
      ),
    );
  };

/**
 * Withdraws every key but `kid`; answers the kids withdrawn. Each enabled user who held
 * live tokens they signed is told, with how many stopped working (ADR 0301, amended).
 */
const revokeAllBut = (deps: Deps, kid: string, at: Date): TE.TaskEither<never, string[]> =>
  pipe(
    deps.keys.list(),
    TE.map((keys) => keysOtherThan(keys, kid).map((k) => k.kid)),
    TE.tap((kids) =>
      deps.keys.revoke(kids, at, (holders) =>
        holders.map((holder) => ({
          id: deps.secrets.uuid(),
          type: SIGNING_KEYS_WITHDRAWN,
          occurred_at: at.toISOString(),
          aggregate_id: holder.userId,
          data: { email: holder.email, tokens: holder.tokens },
        })),
      ),
    ),
  );
