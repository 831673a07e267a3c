import type * as T from 'fp-ts/lib/Task.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuthError } from '../domain/errors.js';
import type { Account, User, UserCredentials } from '../domain/model.js';

/** Accounts and their users. */
export interface AccountRepository {
  readonly createAccount: (account: Account) => T.Task<Account>;
  readonly findAccount: (id: string) => T.Task<Account | undefined>;
  readonly listAccounts: () => T.Task<Account[]>;
  /** NotFound. */
  readonly setApiAccess: (id: string, enabled: boolean) => TE.TaskEither<AuthError, Account>;
  /** NotFound (account), EmailTaken. */
  readonly createUser: (user: User, passwordHash: string) => TE.TaskEither<AuthError, User>;
  readonly findUser: (id: string) => T.Task<User | undefined>;
  readonly findUserByEmail: (email: string) => T.Task<User | undefined>;
  readonly findCredentials: (email: string) => T.Task<UserCredentials | undefined>;
  readonly listUsers: (filter: { readonly accountId?: string }) => T.Task<User[]>;
  /** Re-hashes the same password (stronger parameters at sign-in); revokes nothing. */
  readonly setPasswordHash: (userId: string, passwordHash: string, at: Date) => T.Task<void>;
  /**
   * A new password, and in the same transaction the end of everything the old one let
   * anyone make: every session, access token and client secret of the user (L10).
   */
  readonly changePassword: (userId: string, passwordHash: string, at: Date) => T.Task<PasswordChanged>;
  /** NotFound. */
  readonly setUserDisabled: (userId: string, disabledAt: Date | null) => TE.TaskEither<AuthError, User>;
}

/** What a password change revoked. */
export interface PasswordChanged {
  readonly sessionsEnded: number;
  readonly tokensRevoked: number;
  readonly clientSecretsRemoved: number;
}
