import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { Site } from '../domain/model.js';

export interface SiteChange {
  readonly name?: string;
  readonly defaultLocale?: string | null;
}

export interface Member {
  readonly userId: string;
  readonly email: string;
  readonly addedAt: Date;
}

/** Sites and who is a member of them. */
export interface SiteRepository {
  /**
   * NotFound (account), SiteNameTaken; with `maxPerAccount`, TooManySites when the account
   * has that many already. `firstMember` (a user of the account) is added to it in the
   * same transaction.
   */
  readonly createSite: (input: {
    accountId: string;
    name: string;
    createdAt: Date;
    firstMember?: string;
    maxPerAccount?: number;
  }) => TE.TaskEither<AuthError, Site>;
  readonly findSite: (id: number) => TE.TaskEither<never, O.Option<Site>>;
  /**
   * Renames the Site (ADR 3070) and/or sets (with null clears) its default locale (ADR
   * 2320); what `change` leaves out stays. None: no such Site. SiteNameTaken.
   */
  readonly updateSite: (id: number, change: SiteChange) => TE.TaskEither<AuthError, O.Option<Site>>;
  readonly listSites: (filter: { readonly accountId?: string }) => TE.TaskEither<never, Site[]>;
  /** The sites `userId` is a member of, by id. */
  readonly sitesOf: (userId: string) => TE.TaskEither<never, Site[]>;
  readonly listMembers: (siteId: number) => TE.TaskEither<never, Member[]>;
  /** NotFound (site, user), DifferentAccounts. Adding a member twice is not an error. */
  readonly addMember: (
    siteId: number,
    userId: string,
    at: Date,
  ) => TE.TaskEither<AuthError, { added: boolean }>;
  /** NotFound (site, user). Removing a non-member is not an error. */
  readonly removeMember: (siteId: number, userId: string) => TE.TaskEither<AuthError, { removed: boolean }>;
}
