// The kinds of credential the session matrix (tests/e2e/session-matrix.test.ts) calls every
// session-authenticated operation with, what one of its endpoints is, and the world it runs in.
import { apiClient, bearer, expectStatus, type Answer, type ApiClient } from './client.js';
import type { MatrixEndpoint, MatrixFixture } from './credential-matrix.js';

/**
 * `none`, `malformed`: no session; `access`: the admin's access token, not a session;
 * `ended`: the admin's session after sign-out; `other`: an admin of another account;
 * `member`: a user of the same account who is not its admin; `own`: the account's admin,
 * whose resources each call names.
 */
export const SESSION_KINDS = ['none', 'malformed', 'access', 'ended', 'other', 'member', 'own'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

export type SessionFixture = MatrixFixture<SessionKind>;

/** The status for each kind; the default: 401 without a session, 404 for another user's resource. */
export type SessionEndpoint = MatrixEndpoint<SessionKind>;

export const sessionRefusedByDefault = (kind: SessionKind): number | undefined =>
  kind === 'own' ? undefined : kind === 'other' || kind === 'member' ? 404 : 401;

/** What every endpoint's `prepare` may use: the own account's admin and ways to make more sessions. */
export interface SessionWorld {
  readonly gatewayUrl: string;
  readonly password: string;
  /** The own account's admin, signed in. */
  readonly admin: ApiClient;
  readonly adminEmail: string;
  /** The other account's admin, whose password is `password` too. */
  readonly otherEmail: string;
  /** The own account's Site. */
  readonly site: number;
  /** A new session of a user, whose password is `password` unless another is given. */
  readonly signIn: (email: string, password?: string) => Promise<string>;
  /**
   * A new user of the own account, on its Site, not its admin, whose password is `password`
   * unless another is given: their id, e-mail and a session.
   */
  readonly newMember: (password?: string) => Promise<{ id: string; email: string; session: string }>;
}

export const sessionClient = (gatewayUrl: string, session: string): ApiClient =>
  apiClient(gatewayUrl, bearer(session));

/** The id an answer gives, once it is the expected status. */
export const idOf = async (
  answer: Promise<Answer<{ id: string }>>,
  status: number,
  what: string,
): Promise<string> => expectStatus(await answer, status, what).body.id;
