import type { SiteGrant, TokenIntrospection, TokenState } from '@esign/contracts';
import type { TokenRecord } from './model.js';

export const DAY_SECONDS = 86_400;

/** JWT times are whole seconds; a token's record keeps the same instant as its `exp`. */
export const truncateToSecond = (date: Date): Date => new Date(Math.floor(date.getTime() / 1000) * 1000);

export const expiryOf = (issuedAt: Date, lifetimeSeconds: number): Date =>
  new Date(truncateToSecond(issuedAt).getTime() + lifetimeSeconds * 1000);

export const tokenState = (token: Pick<TokenRecord, 'expiresAt' | 'revokedAt'>, now: Date): TokenState =>
  token.revokedAt !== null ? 'revoked' : token.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';

/** Everything introspection weighs about one token, read in one go. */
export interface IntrospectionSubject {
  readonly tokenId: string;
  readonly userId: string;
  /** The user's e-mail address now: the gateway passes it on in the principal (ADR 2003). */
  readonly email?: string;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
  readonly userDisabled: boolean;
  readonly appUnusable: boolean;
  readonly apiAccess: boolean;
  readonly keyRevoked: boolean;
  /** The sites the user is a member of now. */
  readonly sites: readonly SiteGrant[];
  /** The Sites the token was limited to when made; absent or null: no limit (L10). */
  readonly siteLimit?: readonly number[] | null;
  /** The token may create only test-mode Requests (issue #22); absent: false. */
  readonly testModeOnly?: boolean;
  /** The origins the token's app lets frame embedded signing pages (ADR 2300); absent: none. */
  readonly frameOrigins?: readonly string[];
}

/**
 * What a token reaches: the user's Sites now, within the token's limit if it has one. A
 * Site the user has left stays out even if the token names it.
 */
export const reachableSites = (subject: IntrospectionSubject): SiteGrant[] => {
  const limit = subject.siteLimit;
  const sites =
    limit === undefined || limit === null
      ? [...subject.sites]
      : subject.sites.filter((site) => limit.includes(site.id));
  return sites.sort((a, b) => a.id - b.id);
};

/**
 * The Site ids of a token's limit that its user does not belong to (empty when every one
 * is theirs): a token cannot be limited to more than its user reaches.
 */
export const sitesBeyondUser = (
  requested: readonly number[],
  userSites: readonly { id: number }[],
): number[] => requested.filter((id) => !userSites.some((site) => site.id === id));

/**
 * Whether a token may be used now, and what it reaches: the sites its user is a member of
 * at this moment, not when the token was made. Anything that makes the token unusable
 * (revoked, expired, user or app disabled, account without API access, signing key
 * withdrawn) answers the same bare `{ active: false }`, as RFC 7662 does.
 */
export const introspect = (subject: IntrospectionSubject | undefined, now: Date): TokenIntrospection => {
  if (
    subject === undefined ||
    tokenState(subject, now) !== 'active' ||
    subject.userDisabled ||
    subject.appUnusable ||
    !subject.apiAccess ||
    subject.keyRevoked
  ) {
    return { active: false };
  }
  return {
    active: true,
    sub: subject.userId,
    token_id: subject.tokenId,
    sites: reachableSites(subject),
    ...(subject.email === undefined ? {} : { email: subject.email }),
    ...(subject.testModeOnly === true && { test_mode_only: true }),
    ...(subject.frameOrigins === undefined || subject.frameOrigins.length === 0
      ? {}
      : { frame_origins: [...subject.frameOrigins] }),
  };
};

/**
 * An access token exchanged for a session carries `jti` = `ses.<session id>.<kid>`: no
 * record of its own, so it is never listed, it ends with the session (sign-out, expiry,
 * password change) and introspection still sees which key signed it.
 */
const SESSION_JTI = /^ses\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{1,100})$/;

export const sessionTokenId = (sessionId: string, kid: string): string => `ses.${sessionId}.${kid}`;

export const parseSessionTokenId = (jti: string): { sessionId: string; kid: string } | undefined => {
  const match = SESSION_JTI.exec(jti);
  return match === null ? undefined : { sessionId: match[1]!, kid: match[2]! };
};

/** The `client_id` claim of a session's access token: no Developer App made it. */
export const SESSION_CLIENT_ID = 'esign-session';
