import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { TokenOrigin } from '@esign/contracts';
import type { TokenRecord } from '../domain/model.js';
import { expiryOf, truncateToSecond } from '../domain/tokens.js';
import type { Deps } from './deps.js';
import { ensureSigningKey } from './ensure-signing-key.js';

/** The JWT of an access token's record, signed with the record's key. */
export const signRecord = (deps: Pick<Deps, 'signer'>, record: TokenRecord): TE.TaskEither<never, string> =>
  deps.signer.sign(record.kid, {
    sub: record.userId,
    jti: record.id,
    client_id: record.appId,
    iat: record.createdAt.getTime() / 1000,
    exp: record.expiresAt.getTime() / 1000,
  });

export interface IssuedToken {
  readonly record: TokenRecord;
  /** The JWT: handed out once, never stored. */
  readonly accessToken: string;
}

/**
 * Signs an access token and records it. The record is written after signing, so a
 * failure leaves neither a usable token nor a record behind. Callers have done the checks.
 */
export const issueToken =
  (deps: Deps) =>
  (input: {
    readonly userId: string;
    readonly appId: string;
    readonly origin: TokenOrigin;
    readonly name: string | null;
    readonly lifetimeSeconds: number;
    /** Checked by the caller against the user's Sites; absent: no limit. */
    readonly siteIds?: readonly number[] | null;
    /** The token may create only test-mode Requests (issue #22). */
    readonly testModeOnly?: boolean;
  }): TE.TaskEither<never, IssuedToken> =>
    pipe(
      ensureSigningKey(deps),
      TE.flatMap((key) => {
        const createdAt = truncateToSecond(deps.clock.now());
        const expiresAt = expiryOf(createdAt, input.lifetimeSeconds);
        const record: TokenRecord = {
          id: deps.secrets.uuid(),
          appId: input.appId,
          userId: input.userId,
          kid: key.kid,
          name: input.name,
          origin: input.origin,
          createdAt,
          expiresAt,
          lastUsedAt: null,
          revokedAt: null,
          siteIds: input.siteIds ?? null,
          testModeOnly: input.testModeOnly ?? false,
        };
        return pipe(
          signRecord(deps, record),
          TE.tap(() => deps.tokens.insert(record)),
          TE.map((accessToken) => ({ record, accessToken })),
        );
      }),
    );
