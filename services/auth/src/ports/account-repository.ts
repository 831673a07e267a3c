import type { AccessChanged, ApiAccessChanged, PasswordChangedNotice } from '@esign/contracts';
import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type * as E from 'fp-ts/lib/Either.js';
import type { Account, NewUser, User, UserCredentials } from '../domain/model.js';

/** Accounts and their users. */
export interface AccountRepository {
  readonly createAccount: (account: Account) => TE.TaskEither<never, Account>;
  readonly findAccount: (id: string) => TE.TaskEither<never, O.Option<Account>>;
  readonly listAccounts: () => TE.TaskEither<never, Account[]>;
  /** None: no such account. */
  readonly renameAccount: (id: string, name: string) => TE.TaskEither<never, O.Option<Account>>;
  /**
   * Turns the account's API access on or off with the account locked, and writes in the
   * same transaction the events `tell` makes of its name and users, asked only when the
   * access changes (ADR 3120). NotFound.
   */
  readonly setApiAccess: (
    id: string,
    enabled: boolean,
    tell: (account: AccountUsers) => readonly ApiAccessChanged[],
  ) => TE.TaskEither<AuthError, Account>;
  /** NotFound (account), EmailTaken. */
  readonly createUser: (user: NewUser, passwordHash: string) => TE.TaskEither<AuthError, User>;
  readonly findUser: (id: string) => TE.TaskEither<never, O.Option<User>>;
  readonly findUserByEmail: (email: string) => TE.TaskEither<never, O.Option<User>>;
  readonly findCredentials: (email: string) => TE.TaskEither<never, O.Option<UserCredentials>>;
  readonly listUsers: (filter: { readonly accountId?: string }) => TE.TaskEither<never, User[]>;
  /** Re-hashes the same password (stronger parameters at sign-in); revokes nothing. */
  readonly setPasswordHash: (userId: string, passwordHash: string, at: Date) => TE.TaskEither<never, void>;
  /**
   * A new password, and in the same transaction the end of everything the old one let
   * anyone make: every session, access token and client secret of the user (L10), and
   * `notice` in the outbox: the user is told by e-mail (ADR 3020).
   */
  readonly changePassword: (
    userId: string,
    passwordHash: string,
    at: Date,
    notice: PasswordChangedNotice,
  ) => TE.TaskEither<never, PasswordChanged>;
  /**
   * A change to one user of the account, decided by `decide` from the account's name and
   * every user of it while the account is locked against other such changes, and written
   * if `decide` allows it, with its `notices` in the outbox, in one transaction (ADR 3060).
   * NotFound (user) for an id that cannot be a user's.
   */
  readonly changeAccountUser: (
    accountId: string,
    userId: string,
    decide: (account: AccountUsers) => E.Either<AuthError, UserChanged>,
  ) => TE.TaskEither<AuthError, User>;
}

/** What a password change revoked. */
export interface PasswordChanged {
  readonly sessionsEnded: number;
  readonly tokensRevoked: number;
  readonly clientSecretsRemoved: number;
}

/** An account's name and every user of it, as a change to one of them is decided. */
export interface AccountUsers {
  readonly accountName: string;
  readonly users: readonly User[];
}

/** The user as a change makes them, and the e-mails that tell of it. */
export interface UserChanged {
  readonly user: User;
  readonly notices: readonly AccessChanged[];
}
