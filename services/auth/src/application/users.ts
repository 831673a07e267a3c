import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, type AuthError } from '../domain/errors.js';
import type { User } from '../domain/model.js';
import { checkNewPassword, normalizePassword } from '../domain/password-policy.js';
import type { PasswordChanged } from '../ports/account-repository.js';
import type { Deps } from './deps.js';

export const createUser =
  (deps: Deps) =>
  (input: {
    readonly accountId: string;
    readonly email: string;
    readonly password: string;
  }): TE.TaskEither<AuthError, User> =>
  async () => {
    const email = input.email.toLowerCase();
    const password = checkNewPassword(input.password, email);
    if (E.isLeft(password)) return password;
    if ((await deps.accounts.findAccount(input.accountId)()) === undefined)
      return E.left(notFound('account', input.accountId));
    const hash = await deps.hasher.hash(normalizePassword(password.right))();
    return deps.accounts.createUser(
      {
        id: deps.secrets.uuid(),
        accountId: input.accountId,
        email,
        disabledAt: null,
        createdAt: deps.clock.now(),
      },
      hash,
    )();
  };

/** A user by id or by e-mail address, as an operator would name them. */
export const findUser =
  (deps: Deps) =>
  (idOrEmail: string): TE.TaskEither<AuthError, User> =>
  async () => {
    const user = idOrEmail.includes('@')
      ? await deps.accounts.findUserByEmail(idOrEmail.toLowerCase())()
      : await deps.accounts.findUser(idOrEmail)();
    return user === undefined ? E.left(notFound('user', idOrEmail)) : E.right(user);
  };

/** Disabling a user stops their sessions and tokens at once; enabling restores the tokens still valid. */
export const setUserDisabled =
  (deps: Deps) =>
  (input: { readonly userId: string; readonly disabled: boolean }): TE.TaskEither<AuthError, User> =>
  async () => {
    const now = deps.clock.now();
    const user = await deps.accounts.setUserDisabled(input.userId, input.disabled ? now : null)();
    if (E.isRight(user) && input.disabled) await deps.sessions.revokeAllOf(input.userId, now)();
    return user;
  };

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
  async () => {
    const user = await deps.accounts.findUser(input.userId)();
    if (user === undefined) return E.left(notFound('user', input.userId));
    const password = checkNewPassword(input.password, user.email);
    if (E.isLeft(password)) return password;
    const hash = await deps.hasher.hash(normalizePassword(password.right))();
    const revoked = await deps.accounts.changePassword(user.id, hash, deps.clock.now())();
    return E.right({ ...user, revoked });
  };
