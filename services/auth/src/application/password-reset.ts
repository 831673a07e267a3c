import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { PASSWORD_RESET_REQUESTED, type PasswordResetRequested } from '@esign/contracts';
import type { AuthError } from '../domain/errors.js';
import { checkNewPassword, normalizePassword, weakPasswordIn } from '../domain/password-policy.js';
import type { PasswordChanged } from '../ports/account-repository.js';
import type { NewPasswordReset } from '../ports/password-resets.js';
import { attemptKey } from './check-password.js';
import type { Deps } from './deps.js';
import { passwordChangedNotice } from './users.js';

/** How long a link to choose a new password works (ADR 3000). */
export const PASSWORD_RESET_TTL_SECONDS = 30 * 60;
/** Links sent to one user in any hour: more requests are answered alike and send nothing. */
export const PASSWORD_RESETS_PER_HOUR = 3;
export const PASSWORD_RESET_PREFIX = 'prt_';

/** The web application's page a link opens (`services/web`, pages/password-reset.ts). */
export const passwordResetUrl = (publicBaseUrl: string, token: string): string => {
  const url = new URL('/app/reset-password', publicBaseUrl);
  url.searchParams.set('token', token);
  return url.toString();
};

/**
 * A new link to choose a password for `user`, working for `ttlSeconds`: the row to keep
 * (its token only as a hash) and the event that e-mails it, with `extra` in its data.
 */
export const passwordLink = (
  deps: Pick<Deps, 'clock' | 'secrets' | 'policy'>,
  user: { readonly id: string; readonly email: string },
  ttlSeconds: number,
  extra: Partial<PasswordResetRequested['data']> = {},
): { readonly reset: NewPasswordReset; readonly event: PasswordResetRequested } => {
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  const token = deps.secrets.newSecret(PASSWORD_RESET_PREFIX);
  return {
    reset: {
      id: deps.secrets.uuid(),
      userId: user.id,
      tokenHash: deps.secrets.fingerprint(token),
      createdAt: now,
      expiresAt,
    },
    event: {
      id: deps.secrets.uuid(),
      type: PASSWORD_RESET_REQUESTED,
      occurred_at: now.toISOString(),
      aggregate_id: user.id,
      data: {
        ...extra,
        email: user.email,
        reset_url: passwordResetUrl(deps.policy.publicBaseUrl, token),
        expires_at: expiresAt.toISOString(),
      },
    },
  };
};

/**
 * Someone asks for a link to choose a new password for an e-mail address. A user who can
 * sign in (not disabled, their account with API access) is e-mailed one, through the
 * outbox and the notifier, unless they were sent `PASSWORD_RESETS_PER_HOUR` in the last
 * hour. The answer is the same whatever happened, so it tells nobody which addresses
 * have a user.
 */
export const requestPasswordReset =
  (deps: Deps) =>
  (email: string): TE.TaskEither<AuthError, void> =>
    pipe(
      deps.accounts.findCredentials(email),
      TE.flatMap(
        O.match(
          () => TE.right<never, void>(undefined),
          (user) => {
            if (user.disabledAt !== null || !user.apiAccess) return TE.right<never, void>(undefined);
            const { reset, event } = passwordLink(deps, user, PASSWORD_RESET_TTL_SECONDS);
            return pipe(
              deps.passwordResets.issue(reset, event, PASSWORD_RESETS_PER_HOUR),
              TE.map(() => undefined),
            );
          },
        ),
      ),
    );

/**
 * A link's token and a new password: the password is set as a change sets it (every
 * session, token, authorised app's refresh token and client secret ends, ADR 1311), the
 * link is used up, and the address's failed sign-in attempts are forgotten, so a user
 * locked out by guesses can sign in at once with the new password.
 */
export const resetPassword =
  (deps: Deps) =>
  (input: {
    readonly token: string;
    readonly newPassword: string;
  }): TE.TaskEither<AuthError, PasswordChanged> => {
    const tokenHash = deps.secrets.fingerprint(input.token);
    const invalid: AuthError = { _tag: 'InvalidResetToken' };
    const now = deps.clock.now();
    return pipe(
      deps.passwordResets.findOpen(tokenHash, now),
      TE.flatMap(TE.fromOption(() => invalid)),
      TE.flatMap((owner) =>
        pipe(
          TE.fromEither(
            pipe(checkNewPassword(input.newPassword, owner.email), E.mapLeft(weakPasswordIn('new_password'))),
          ),
          TE.flatMap((password) => deps.hasher.hash(normalizePassword(password))),
          TE.flatMap((hash) =>
            deps.passwordResets.redeem(
              tokenHash,
              hash,
              now,
              passwordChangedNotice(deps, { id: owner.userId, email: owner.email }, 'reset_link', now),
            ),
          ),
          TE.flatMap(TE.fromOption(() => invalid)),
          TE.tap(() => deps.attempts.clear(attemptKey(owner.email))),
        ),
      ),
    );
  };
