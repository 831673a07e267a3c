import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { User, UserCredentials } from '../domain/model.js';
import { normalizePassword } from '../domain/password-policy.js';
import { keptUserAgent } from '../domain/sessions.js';
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
    /** The client's address: its own lock-out (ADR 1303), and kept with the session (ADR 3100). */
    readonly client?: string;
    /** The client's `User-Agent`, kept with the session for the user's list of them (ADR 3100). */
    readonly userAgent?: string;
  }): TE.TaskEither<AuthError, SignedIn> =>
    pipe(
      deps.accounts.findCredentials(input.email),
      TE.tap((user) =>
        checkPassword(deps)({
          email: input.email,
          password: input.password,
          passwordHash: O.toUndefined(user)?.passwordHash,
          wrong: { _tag: 'InvalidCredentials' },
          ...(input.client === undefined ? {} : { client: input.client }),
        }),
      ),
      TE.flatMap((user) => TE.fromEither(mayUseApi(user))),
      TE.flatMap((user) => {
        const now = deps.clock.now();
        return pipe(
          upgradeHash(deps, user, input.password, now),
          TE.flatMap(() =>
            startSession(deps, user, now, {
              clientAddress: input.client ?? null,
              userAgent: keptUserAgent(input.userAgent),
            }),
          ),
        );
      }),
    );

/** Hashes made with weaker parameters are upgraded while the password is at hand. */
const upgradeHash = (
  deps: Deps,
  user: UserCredentials,
  password: string,
  now: Date,
): TE.TaskEither<never, void> =>
  deps.hasher.needsRehash(user.passwordHash)
    ? pipe(
        deps.hasher.hash(normalizePassword(password)),
        TE.flatMap((hash) => deps.accounts.setPasswordHash(user.id, hash, now)),
      )
    : TE.right(undefined);

const startSession = (
  deps: Deps,
  user: UserCredentials,
  now: Date,
  client: { readonly clientAddress: string | null; readonly userAgent: string | null },
): TE.TaskEither<never, SignedIn> => {
  const sessionToken = deps.secrets.newSecret(SESSION_PREFIX);
  const expiresAt = new Date(now.getTime() + deps.policy.sessionTtlSeconds * 1000);
  return pipe(
    deps.sessions.create({
      id: deps.secrets.uuid(),
      userId: user.id,
      fingerprint: deps.secrets.fingerprint(sessionToken),
      createdAt: now,
      expiresAt,
      ...client,
    }),
    TE.map(() => {
      const { passwordHash: _hash, apiAccess: _access, ...plain } = user;
      return { sessionToken, expiresAt, user: plain };
    }),
  );
};

/** Only once the password is right does the answer say the user is disabled or the account lacks API access. */
const mayUseApi = (user: O.Option<UserCredentials>): E.Either<AuthError, UserCredentials> => {
  if (O.isNone(user)) return E.left({ _tag: 'InvalidCredentials' });
  if (user.value.disabledAt !== null) return E.left({ _tag: 'UserDisabled' });
  if (!user.value.apiAccess) return E.left({ _tag: 'ApiAccessRequired' });
  return E.right(user.value);
};
