import { API_ACCESS_CHANGED, type ApiAccessChanged } from '@esign/contracts';
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

/**
 * Granting or withdrawing API access (the CLI's `set-api-access`); withdrawn, nobody of the
 * account can sign in and its tokens stop working at once. Every enabled user of the
 * account is e-mailed when it changes (ADR 3120): they would otherwise find out by failing.
 */
export const setApiAccess =
  (deps: Deps) =>
  (input: { readonly accountId: string; readonly enabled: boolean }): TE.TaskEither<AuthError, Account> => {
    const at = deps.clock.now();
    return deps.accounts.setApiAccess(input.accountId, input.enabled, ({ accountName, users }) =>
      users
        .filter((user) => user.disabledAt === null)
        .map((user): ApiAccessChanged => ({
          id: deps.secrets.uuid(),
          type: API_ACCESS_CHANGED,
          occurred_at: at.toISOString(),
          aggregate_id: input.accountId,
          data: { email: user.email, account_name: accountName, enabled: input.enabled },
        })),
    );
  };
