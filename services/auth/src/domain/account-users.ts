import * as E from 'fp-ts/lib/Either.js';
import { notFound, type AuthError } from './errors.js';
import type { User } from './model.js';

/** What an account admin asks to change about a user of the account (ADR 3040, ADR 3060). */
export interface UserChange {
  readonly disabled?: boolean;
  readonly admin?: boolean;
}

const activeAdmin = (user: User): boolean => user.accountAdmin && user.disabledAt === null;

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
  const target = users.find((u) => u.id === input.targetId);
  if (target === undefined) return E.left(notFound('user', input.targetId));
  const { disabled, admin } = input.change;
  if (disabled === true && target.id === actor.id) return E.left({ _tag: 'CannotDisableYourself' });
  const next: User = {
    ...target,
    disabledAt:
      disabled === undefined ? target.disabledAt : disabled ? (target.disabledAt ?? input.at) : null,
    accountAdmin: admin ?? target.accountAdmin,
  };
  const remaining = users.map((u) => (u.id === next.id ? next : u)).filter(activeAdmin);
  return remaining.length === 0 ? E.left({ _tag: 'LastAdmin' }) : E.right(next);
};
