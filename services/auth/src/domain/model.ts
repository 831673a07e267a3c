import type { TokenOrigin } from '@esign/contracts';

/** An organisation; `apiAccess` is the spec's "account with REST API access". */
export interface Account {
  readonly id: string;
  readonly name: string;
  readonly apiAccess: boolean;
  readonly createdAt: Date;
}

export interface User {
  readonly id: string;
  readonly accountId: string;
  readonly email: string;
  readonly disabledAt: Date | null;
  readonly createdAt: Date;
  /** Administers the account: its users, invitations and Sites (ADR 1401, ADR 3060). */
  readonly accountAdmin: boolean;
}

/** A user as made: the repository decides whether they administer the account. */
export type NewUser = Omit<User, 'accountAdmin'>;

/** A user with what signing in needs to know about them. */
export interface UserCredentials extends User {
  readonly passwordHash: string;
  readonly apiAccess: boolean;
}

export interface Site {
  readonly id: number;
  readonly accountId: string;
  readonly name: string;
  readonly createdAt: Date;
  /** The language its signers read when their entry names none (canonical BCP 47); null: none (ADR 2320). */
  readonly defaultLocale: string | null;
}

export interface DeveloperApp {
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  readonly clientSecretCreatedAt: Date | null;
  readonly createdAt: Date;
  readonly disabledAt: Date | null;
  /** Where the authorization-code grant may send users back; null: the grant is not open to it. */
  readonly callbackUrl: string | null;
}

export interface TokenRecord {
  readonly id: string;
  readonly appId: string;
  readonly userId: string;
  readonly kid: string;
  readonly name: string | null;
  readonly origin: TokenOrigin;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
  /** The Sites the token is limited to; null: every Site its user belongs to (L10). */
  readonly siteIds: readonly number[] | null;
  /** The token may create only test-mode Requests (issue #22). */
  readonly testModeOnly: boolean;
}

/** A signed-in user of the self-service API. */
export interface SessionUser {
  readonly sessionId: string;
  readonly userId: string;
  readonly accountId: string;
  readonly email: string;
  readonly expiresAt: Date;
  /** Manages who is on which of the account's Sites. */
  readonly accountAdmin: boolean;
}
