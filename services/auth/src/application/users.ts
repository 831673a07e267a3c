import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { accessNotices, decideOperatorChange, type UserChange } from '../domain/account-users.js';
import { notFound, type AuthError } from '../domain/errors.js';
import { PASSWORD_CHANGED, type PasswordChangedBy, type PasswordChangedNotice } from '@esign/contracts';
import type { SessionUser, User } from '../domain/model.js';
import { checkNewPassword, normalizePassword, weakPasswordIn } from '../domain/password-policy.js';
import type { PasswordChanged } from '../ports/account-repository.js';
import { accessChangedEvents } from './access-changed.js';
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

/**
 * An operator's change to a user with the admin CLI (ADR 3120): disable or enable them,
 * make them an admin of their account or no longer one (ADR 3060: the way back for an
 * account whose only admin left). Decided under the account's lock, as an admin's change
 * is (`decideOperatorChange`), and e-mailed in its transaction: the user, and the account's
 * enabled admins, who did not make it and should know. Disabling ends the user's sessions
 * at once; their tokens stop within the gateway's cache bound. Asking for what the user
 * already is changes nothing and tells nobody.
 */
export const changeUserAsOperator =
  (deps: Deps) =>
  (input: { readonly userId: string; readonly change: UserChange }): TE.TaskEither<AuthError, User> => {
    const at = deps.clock.now();
    return pipe(
      deps.accounts.findUser(input.userId),
      required(() => notFound('user', input.userId)),
      TE.flatMap((found) =>
        deps.accounts.changeAccountUser(found.accountId, found.id, ({ accountName, users }) =>
          pipe(
            decideOperatorChange(users, { targetId: found.id, change: input.change, at }),
            E.map((user) => ({
              user,
              notices: accessChangedEvents(deps, accessNotices(users, user, 'operator'), {
                accountName,
                user,
                by: 'operator',
                at,
              }),
            })),
          ),
        ),
      ),
      // A disabled user has no session left; ending them again finds none.
      TE.tap((user) =>
        input.change.disabled === true ? deps.sessions.revokeAllOf(user.id, at) : TE.right(undefined),
      ),
    );
  };

/** The CLI's `disable-user` and `enable-user`. */
export const setUserDisabled =
  (deps: Deps) =>
  (input: { readonly userId: string; readonly disabled: boolean }): TE.TaskEither<AuthError, User> =>
    changeUserAsOperator(deps)({ userId: input.userId, change: { disabled: input.disabled } });

/** The CLI's `set-admin`. */
export const setAccountAdmin =
  (deps: Deps) =>
  (input: { readonly userId: string; readonly admin: boolean }): TE.TaskEither<AuthError, User> =>
    changeUserAsOperator(deps)({ userId: input.userId, change: { admin: input.admin } });

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
