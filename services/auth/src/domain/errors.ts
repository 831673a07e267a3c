/**
 * Every expected failure of auth's use cases. The HTTP edge maps each tag to a status
 * and a problem code in one table (adapters/http/problems.ts); the admin CLI to an exit code.
 */
export type AuthError =
  | { readonly _tag: 'InvalidCredentials' }
  | { readonly _tag: 'WrongPassword' }
  /** A link to choose a new password that is unknown, used, replaced or expired (ADR 3000). */
  | { readonly _tag: 'InvalidResetToken' }
  /** The current password, re-entered to change it, is wrong: nothing changed. */
  | { readonly _tag: 'WrongCurrentPassword' }
  | { readonly _tag: 'Throttled'; readonly retryAfterSeconds: number }
  /** Too many unauthenticated calls from this client, or from everyone. */
  | { readonly _tag: 'RateLimited'; readonly retryAfterSeconds: number }
  /** The password hasher's queue is full: answered at once rather than queued. */
  | { readonly _tag: 'Busy' }
  | { readonly _tag: 'ApiAccessRequired' }
  | { readonly _tag: 'UserDisabled' }
  | { readonly _tag: 'SessionRequired' }
  | { readonly _tag: 'SessionInvalid' }
  | { readonly _tag: 'NotFound'; readonly entity: Entity; readonly id: string }
  | { readonly _tag: 'EmailTaken'; readonly email: string }
  | { readonly _tag: 'SiteNameTaken'; readonly name: string }
  /** The account has the most Sites it may have (ADR 3050). */
  | { readonly _tag: 'TooManySites'; readonly max: number }
  | { readonly _tag: 'DifferentAccounts'; readonly siteId: number; readonly userId: string }
  /** `field`: the body's field that held it, when it came in a body (`new_password`). */
  | { readonly _tag: 'WeakPassword'; readonly reason: string; readonly field?: string }
  | { readonly _tag: 'AccountAdminRequired' }
  | { readonly _tag: 'NotAccountUser'; readonly email: string }
  /** An account admin may not disable their own user (ADR 3040). */
  | { readonly _tag: 'CannotDisableYourself' }
  /** The change would leave the account without an enabled admin (ADR 3060). */
  | { readonly _tag: 'LastAdmin' }
  /** An invitation to an address a user of the account already has (ADR 3030). */
  | { readonly _tag: 'AlreadyAccountUser'; readonly email: string }
  /** Sites named that are not the account's. */
  | { readonly _tag: 'UnknownSites'; readonly siteIds: readonly number[] }
  /** The account sent its invitations of the hour. */
  | { readonly _tag: 'TooManyInvitations'; readonly retryAfterSeconds: number }
  /** An invitation link that is unknown, used, revoked, replaced or expired. */
  | { readonly _tag: 'InvalidInvitationToken' }
  /** A token limited to Sites its user does not belong to. */
  | { readonly _tag: 'SitesNotReachable'; readonly siteIds: readonly number[] }
  /** An authorization request whose client or callback cannot be trusted (shown on our page). */
  | { readonly _tag: 'InvalidAuthorizationRequest'; readonly field: string; readonly reason: string }
  /** Allowing an app needs at least one Site to grant it. */
  | { readonly _tag: 'NoSitesToGrant' };

export type Entity =
  'account' | 'user' | 'site' | 'app' | 'token' | 'key' | 'membership' | 'invitation' | 'session';

export const notFound = (entity: Entity, id: string | number): AuthError => ({
  _tag: 'NotFound',
  entity,
  id: String(id),
});

/** Failures of the client-credentials grant, mapped to RFC 6749 §5.2 codes at the edge. */
export type ClientCredentialsError =
  { readonly _tag: 'InvalidClient' } | { readonly _tag: 'UnauthorizedClient'; readonly reason: string };

/** Failures of the authorization-code and refresh-token grants (RFC 6749 §5.2). */
export type GrantError =
  | ClientCredentialsError
  | { readonly _tag: 'InvalidGrant'; readonly reason: string }
  | { readonly _tag: 'InvalidRequest'; readonly reason: string };
