import * as E from 'fp-ts/lib/Either.js';
import type { AccessChange } from '@esign/contracts';
import { notFound, type AuthError } from './errors.js';
import type { User } from './model.js';

/** What an account admin asks to change about a user of the account (ADR 3040, ADR 3060). */
export interface UserChange {
  readonly disabled?: boolean;
  readonly admin?: boolean;
}

/** An admin who may act: enabled. */
export const activeAdmin = (user: User): boolean => user.accountAdmin && user.disabledAt === null;

/**
 * Decides a change to a user of the account, given every user of the account as they are
 * while the account is locked, so two admins acting at once are decided one after the
 * other. The actor must still be an enabled admin (another admin may have demoted or
 * disabled them a moment ago); an admin cannot disable themselves; and the account always
 * keeps an enabled admin, so an admin steps down only when another one remains. Asking for
 * what a user already is changes nothing and keeps the first `disabledAt`.
 */
export const decideUserChange = (
  users: readonly User[],
  input: {
    readonly actorId: string;
    readonly targetId: string;
    readonly change: UserChange;
    readonly at: Date;
  },
): E.Either<AuthError, User> => {
  const actor = users.find((u) => u.id === input.actorId);
  if (actor === undefined || !activeAdmin(actor)) return E.left({ _tag: 'AccountAdminRequired' });
  if (input.change.disabled === true && input.targetId === actor.id)
    return E.left({ _tag: 'CannotDisableYourself' });
  return applyUserChange(users, input);
};

type ChangeInput = { readonly targetId: string; readonly change: UserChange; readonly at: Date };

/** The target as `change` makes them, whatever the account keeps; the first `disabledAt` stays. */
const changedUser = (users: readonly User[], input: ChangeInput): E.Either<AuthError, User> => {
  const target = users.find((u) => u.id === input.targetId);
  if (target === undefined) return E.left(notFound('user', input.targetId));
  const { disabled, admin } = input.change;
  return E.right({
    ...target,
    disabledAt:
      disabled === undefined ? target.disabledAt : disabled ? (target.disabledAt ?? input.at) : null,
    accountAdmin: admin ?? target.accountAdmin,
  });
};

/**
 * The user as `change` makes them, if the account keeps an enabled admin after it. An
 * operator's change of role (the CLI's `set-admin`) is decided by this alone: an operator
 * is no user of the account.
 */
export const applyUserChange = (users: readonly User[], input: ChangeInput): E.Either<AuthError, User> =>
  E.flatMap(changedUser(users, input), (next) =>
    users.map((u) => (u.id === next.id ? next : u)).some(activeAdmin)
      ? E.right(next)
      : E.left({ _tag: 'LastAdmin' }),
  );

/**
 * An operator's change with the admin CLI (ADR 3120). A change of role keeps an enabled
 * admin, as an admin's does (`applyUserChange`). Disabling or enabling does not: an
 * operator may have to stop an account's only user or only admin (a leaver, a stolen
 * password), and `set-admin` gives the account a new admin afterwards.
 */
export const decideOperatorChange = (
  users: readonly User[],
  input: ChangeInput,
): E.Either<AuthError, User> =>
  input.change.admin !== undefined ? applyUserChange(users, input) : changedUser(users, input);

/** Whom to tell what about a change to a user of the account (ADR 3060): one e-mail each. */
export interface AccessNotice {
  readonly email: string;
  readonly change: AccessChange;
}

/**
 * Who is told of a change `decideUserChange` or `decideOperatorChange` allowed. A new or
 * removed admin is told to every enabled admin the account has after it, and to the user:
 * admins are peers, so one whose session is misused to demote the others hears of it. A
 * user disabled or enabled is told themselves; when an operator did it (ADR 3120), so is
 * every enabled admin, who did not and should know. What changed nothing tells nobody.
 */
export const accessNotices = (
  users: readonly User[],
  next: User,
  by: 'admin' | 'operator' = 'admin',
): AccessNotice[] => {
  const before = users.find((u) => u.id === next.id);
  if (before === undefined) return [];
  const admins = users.map((u) => (u.id === next.id ? next : u)).filter(activeAdmin);
  const toAll = (change: AccessChange, whom: readonly User[]): AccessNotice[] =>
    [...new Set([...whom.map((u) => u.email), next.email])].map((email) => ({ email, change }));
  const notices: AccessNotice[] = [];
  if (before.accountAdmin !== next.accountAdmin)
    notices.push(...toAll(next.accountAdmin ? 'made_admin' : 'removed_admin', admins));
  if ((before.disabledAt === null) !== (next.disabledAt === null))
    notices.push(
      ...toAll(next.disabledAt === null ? 'enabled' : 'disabled', by === 'operator' ? admins : []),
    );
  return notices;
};
