import type * as T from 'fp-ts/lib/Task.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { Site } from '../domain/model.js';

export interface Member {
  readonly userId: string;
  readonly email: string;
  readonly addedAt: Date;
}

/** Sites and who is a member of them. */
export interface SiteRepository {
  /** NotFound (account), SiteNameTaken. */
  readonly createSite: (input: {
    accountId: string;
    name: string;
    createdAt: Date;
  }) => TE.TaskEither<AuthError, Site>;
  readonly findSite: (id: number) => T.Task<Site | undefined>;
  /** Sets (or with null clears) the Site's default locale (ADR 2320); undefined: no such Site. */
  readonly setDefaultLocale: (id: number, locale: string | null) => T.Task<Site | undefined>;
  readonly listSites: (filter: { readonly accountId?: string }) => T.Task<Site[]>;
  /** The sites `userId` is a member of, by id. */
  readonly sitesOf: (userId: string) => T.Task<Site[]>;
  readonly listMembers: (siteId: number) => T.Task<Member[]>;
  /** NotFound (site, user), DifferentAccounts. Adding a member twice is not an error. */
  readonly addMember: (
    siteId: number,
    userId: string,
    at: Date,
  ) => TE.TaskEither<AuthError, { added: boolean }>;
  /** NotFound (site, user). Removing a non-member is not an error. */
  readonly removeMember: (siteId: number, userId: string) => TE.TaskEither<AuthError, { removed: boolean }>;
}
