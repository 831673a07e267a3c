import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { Account } from '../domain/model.js';
import type { Deps } from './deps.js';

export const createAccount =
  (deps: Deps) =>
  (input: { readonly name: string; readonly apiAccess: boolean }): TE.TaskEither<AuthError, Account> =>
    deps.accounts.createAccount({
      id: deps.secrets.uuid(),
      name: input.name.trim(),
      apiAccess: input.apiAccess,
      createdAt: deps.clock.now(),
    });

/** Granting or withdrawing API access; withdrawn, the account's tokens stop working at once. */
export const setApiAccess =
  (deps: Deps) =>
  (input: { readonly accountId: string; readonly enabled: boolean }): TE.TaskEither<AuthError, Account> =>
    deps.accounts.setApiAccess(input.accountId, input.enabled);
