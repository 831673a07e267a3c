import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { applyUserChange } from '../domain/account-users.js';
import { notFound, type AuthError } from '../domain/errors.js';
import { PASSWORD_CHANGED, type PasswordChangedBy, type PasswordChangedNotice } from '@esign/contracts';
import type { SessionUser, User } from '../domain/model.js';
import { checkNewPassword, normalizePassword, weakPasswordIn } from '../domain/password-policy.js';
import type { PasswordChanged } from '../ports/account-repository.js';
import { checkPassword } from './check-password.js';
import type { Deps } from './deps.js';
import { required } from './required.js';

export const createUser =
  (deps: Deps) =>
  (input: {
    readonly accountId: string;
    readonly email: string;
    readonly password: string;
  }): TE.TaskEither<AuthError, User> => {
    const email = input.email.toLowerCase();
    return pipe(
      TE.fromEither(checkNewPassword(input.password, email)),
      TE.tap(() =>
        pipe(
          deps.accounts.findAccount(input.accountId),
          required(() => notFound('account', input.accountId)),
        ),
      ),
      TE.flatMap((password) => deps.hasher.hash(normalizePassword(password))),
      TE.flatMap((hash) =>
        deps.accounts.createUser(
          {
            id: deps.secrets.uuid(),
            accountId: input.accountId,
            email,
            disabledAt: null,
            createdAt: deps.clock.now(),
          },
          hash,
        ),
      ),
    );
  };

/** The event that has a user told their password changed (ADR 3020). */
export const passwordChangedNotice = (
  deps: Pick<Deps, 'secrets'>,
  user: { readonly id: string; readonly email: string },
  by: PasswordChangedBy,
  at: Date,
): PasswordChangedNotice => ({
  id: deps.secrets.uuid(),
  type: PASSWORD_CHANGED,
  occurred_at: at.toISOString(),
  aggregate_id: user.id,
  data: { email: user.email, by },
});

/** A user by id or by e-mail address, as an operator would name them. */
export const findUser =
  (deps: Deps) =>
  (idOrEmail: string): TE.TaskEither<AuthError, User> =>
    pipe(
      idOrEmail.includes('@')
        ? deps.accounts.findUserByEmail(idOrEmail.toLowerCase())
        : deps.accounts.findUser(idOrEmail),
      required(() => notFound('user', idOrEmail)),
    );

/** Disabling a user stops their sessions and tokens at once; enabling restores the tokens still valid. */
export const setUserDisabled =
  (deps: Deps) =>
  (input: { readonly userId: string; readonly disabled: boolean }): TE.TaskEither<AuthError, User> => {
    const now = deps.clock.now();
    return pipe(
      deps.accounts.setUserDisabled(input.userId, input.disabled ? now : null),
      TE.tap(() => (input.disabled ? deps.sessions.revokeAllOf(input.userId, now) : TE.right(undefined))),
    );
  };

/**
 * An operator makes a user an admin of their account, or no longer one (ADR 3060): the
 * way back for an account whose only admin left. Decided like an admin's change, under
 * the account's lock, and the account keeps an enabled admin; operators' changes are not
 * e-mailed, as `disable-user`'s are not.
 */
export const setAccountAdmin =
  (deps: Deps) =>
  (input: { readonly userId: string; readonly admin: boolean }): TE.TaskEither<AuthError, User> =>
    pipe(
      deps.accounts.findUser(input.userId),
      required(() => notFound('user', input.userId)),
      TE.flatMap((user) =>
        deps.accounts.changeAccountUser(user.accountId, user.id, ({ users }) =>
          pipe(
            applyUserChange(users, {
              targetId: user.id,
              change: { admin: input.admin },
              at: deps.clock.now(),
            }),
            E.map((changed) => ({ user: changed, notices: [] })),
          ),
        ),
      ),
    );

/**
 * Sets a new password (a reset by an operator, or a change) and, at once, ends every
 * session, revokes every access token and removes every client secret of the user:
 * whatever someone who knew the old password made stops working (issue #18, L10).
 */
export const setPassword =
  (deps: Deps) =>
  (input: {
    readonly userId: string;
    readonly password: string;
  }): TE.TaskEither<AuthError, User & { readonly revoked: PasswordChanged }> =>
    pipe(
      deps.accounts.findUser(input.userId),
      required(() => notFound('user', input.userId)),
      TE.flatMap((user) =>
        pipe(
          TE.fromEither(checkNewPassword(input.password, user.email)),
          TE.flatMap((password) => deps.hasher.hash(normalizePassword(password))),
          TE.flatMap((hash) => {
            const at = deps.clock.now();
            return deps.accounts.changePassword(
              user.id,
              hash,
              at,
              passwordChangedNotice(deps, user, 'operator', at),
            );
          }),
          TE.map((revoked) => ({ ...user, revoked })),
        ),
      ),
    );

/**
 * A signed-in user changes their own password: the new one is checked against the rules
 * (and must differ from the current one) before anything is counted, then the current
 * one is checked under the same throttle as sign-in, then the change revokes what
 * `setPassword` revokes, this session included (ADR 2980).
 */
export const changeOwnPassword =
  (deps: Deps) =>
  (input: {
    readonly session: SessionUser;
    readonly currentPassword: string;
    readonly newPassword: string;
  }): TE.TaskEither<AuthError, PasswordChanged> => {
    const checked = pipe(
      checkNewPassword(input.newPassword, input.session.email),
      E.filterOrElse(
        (password) => normalizePassword(password) !== normalizePassword(input.currentPassword),
        (): AuthError => ({ _tag: 'WeakPassword', reason: 'must differ from the current password' }),
      ),
      E.mapLeft(weakPasswordIn('new_password')),
    );
    return pipe(
      TE.fromEither(checked),
      TE.tap(() =>
        pipe(
          deps.accounts.findCredentials(input.session.email),
          TE.flatMap((user) =>
            checkPassword(deps)({
              email: input.session.email,
              password: input.currentPassword,
              passwordHash: O.toUndefined(user)?.passwordHash,
              wrong: { _tag: 'WrongCurrentPassword' },
            }),
          ),
        ),
      ),
      TE.flatMap((password) => deps.hasher.hash(normalizePassword(password))),
      TE.flatMap((hash) => {
        const at = deps.clock.now();
        const user = { id: input.session.userId, email: input.session.email };
        return deps.accounts.changePassword(user.id, hash, at, passwordChangedNotice(deps, user, 'user', at));
      }),
    );
  };
