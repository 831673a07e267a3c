import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { PageOf } from '@esign/contracts';
import { notFound, type AuthError } from '../domain/errors.js';
import type { Account, DeveloperApp, Site, TokenRecord, User } from '../domain/model.js';
import { keySchedule, type KeyState } from '../domain/signing-keys.js';
import type { StoredKey } from '../ports/signing-keys.js';
import type { Member } from '../ports/site-repository.js';
import type { TokenFilter } from '../ports/token-repository.js';
import type { Deps } from './deps.js';

/** The operator's lists (the admin CLI's `list …`): every record, across accounts. */

export const listAccounts = (deps: Pick<Deps, 'accounts'>) => (): TE.TaskEither<never, Account[]> =>
  deps.accounts.listAccounts();

export const listUsers =
  (deps: Pick<Deps, 'accounts'>) =>
  (filter: { readonly accountId?: string }): TE.TaskEither<never, User[]> =>
    deps.accounts.listUsers(filter);

/** A user's sites when a user is named, else the sites of an account (or all). */
export const listSites =
  (deps: Pick<Deps, 'sites'>) =>
  (filter: { readonly accountId?: string; readonly userId?: string }): TE.TaskEither<never, Site[]> =>
    filter.userId !== undefined
      ? deps.sites.sitesOf(filter.userId)
      : deps.sites.listSites(filter.accountId === undefined ? {} : { accountId: filter.accountId });

export const listMembers =
  (deps: Pick<Deps, 'sites'>) =>
  (siteId: number): TE.TaskEither<AuthError, Member[]> =>
    pipe(
      deps.sites.findSite(siteId),
      TE.flatMap(
        O.match(
          (): TE.TaskEither<AuthError, Member[]> => TE.left(notFound('site', siteId)),
          () => deps.sites.listMembers(siteId),
        ),
      ),
    );

export const listApps =
  (deps: Pick<Deps, 'apps'>) =>
  (filter: { readonly userId?: string }): TE.TaskEither<never, DeveloperApp[]> =>
    deps.apps.list(filter);

/** At most the 1,000 newest: an operator's screenful, with the total. */
export const listTokens =
  (deps: Pick<Deps, 'tokens'>) =>
  (filter: TokenFilter): TE.TaskEither<never, PageOf<TokenRecord>> =>
    deps.tokens.list(filter, { page: 1, perPage: 1000 });

/** Every signing key with its state now (see `keySchedule`). */
export const listKeys =
  (deps: Pick<Deps, 'keys' | 'clock'>) =>
  (): TE.TaskEither<
    never,
    { readonly key: StoredKey; readonly state: KeyState; readonly published: boolean }[]
  > =>
    pipe(
      deps.keys.list(),
      TE.map((keys) => keySchedule(keys, deps.clock.now())),
    );
