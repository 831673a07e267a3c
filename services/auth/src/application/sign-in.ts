import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { User } from '../domain/model.js';
import { normalizePassword } from '../domain/password-policy.js';
import { checkPassword } from './check-password.js';
import type { Deps } from './deps.js';

export const SESSION_PREFIX = 'ses_';

export interface SignedIn {
  readonly sessionToken: string;
  readonly expiresAt: Date;
  readonly user: User;
}

/**
 * E-mail and password in, a short-lived session credential out. An unknown address and
 * a wrong password answer alike; only after the password is right does the answer say
 * the user is disabled or the account lacks API access.
 */
export const signIn =
  (deps: Deps) =>
  (input: {
    readonly email: string;
    readonly password: string;
    /** The client's address: its own lock-out (ADR 1303). */
    readonly client?: string;
  }): TE.TaskEither<AuthError, SignedIn> =>
  async () => {
    const user = await deps.accounts.findCredentials(input.email)();
    const checked = await checkPassword(deps)({
      email: input.email,
      password: input.password,
      passwordHash: user?.passwordHash,
      wrong: { _tag: 'InvalidCredentials' },
      ...(input.client === undefined ? {} : { client: input.client }),
    })();
    if (E.isLeft(checked)) return checked;
    if (user === undefined) return E.left({ _tag: 'InvalidCredentials' });
    if (user.disabledAt !== null) return E.left({ _tag: 'UserDisabled' });
    if (!user.apiAccess) return E.left({ _tag: 'ApiAccessRequired' });
    const now = deps.clock.now();
    // Hashes made with weaker parameters are upgraded while the password is at hand.
    if (deps.hasher.needsRehash(user.passwordHash)) {
      await deps.accounts.setPasswordHash(
        user.id,
        await deps.hasher.hash(normalizePassword(input.password))(),
        now,
      )();
    }
    const sessionToken = deps.secrets.newSecret(SESSION_PREFIX);
    const expiresAt = new Date(now.getTime() + deps.policy.sessionTtlSeconds * 1000);
    await deps.sessions.create({
      id: deps.secrets.uuid(),
      userId: user.id,
      fingerprint: deps.secrets.fingerprint(sessionToken),
      createdAt: now,
      expiresAt,
    })();
    const { passwordHash: _hash, apiAccess: _access, ...plain } = user;
    return E.right({ sessionToken, expiresAt, user: plain });
  };
