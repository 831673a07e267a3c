import { CODE_CHALLENGE, CODE_VERIFIER, type AuthorizationRequestParams } from '@esign/contracts';
import type { DeveloperApp } from './model.js';

/** Rules of the authorization-code grant (RFC 6749 §4.1, RFC 7636). Decisions in ADR 2400. */

/** An access token from this grant lives an hour; the app refreshes it. */
export const OAUTH_ACCESS_TOKEN_TTL_SECONDS = 3600;
/** A refresh token is single use; each use gives a new one with a fresh lifetime. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400;
export const AUTHORIZATION_CODE_PREFIX = 'eac_';
export const REFRESH_TOKEN_PREFIX = 'ert_';

/** A grant: one "Allow", and everything that descends from it (its code, refresh and access tokens). */
export interface OAuthGrant {
  readonly id: string;
  readonly appId: string;
  readonly userId: string;
  readonly siteIds: readonly number[];
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

/** A validated authorization request. */
export interface AuthorizationRequest {
  readonly app: DeveloperApp;
  readonly redirectUri: string;
  readonly state: string;
  readonly codeChallenge: string;
}

/**
 * How an authorization request is answered: on our own page (the client or its callback
 * cannot be trusted, RFC 6749 §4.1.2.1), at the callback with an error, or with consent.
 */
export type AuthorizationCheck =
  | { readonly kind: 'page'; readonly field: 'client_id' | 'redirect_uri'; readonly reason: string }
  | {
      readonly kind: 'redirect';
      readonly error: string;
      readonly description: string;
      readonly state?: string;
    }
  | { readonly kind: 'consent'; readonly request: AuthorizationRequest };

/** A parameter given more than once arrives as an array: the request is malformed (§3.1). */
export type RawParams = Partial<Record<keyof AuthorizationRequestParams, string | readonly string[]>>;

const single = (value: string | readonly string[] | undefined): string | undefined | null =>
  value === undefined ? undefined : typeof value === 'string' ? value : null;

/**
 * Checks a request against the app it names (looked up by the caller; undefined when
 * unknown, deleted, or when client_id was malformed). The client and the callback are
 * checked first: until both are trusted, nothing goes to the callback.
 */
export const checkAuthorizationRequest = (
  params: RawParams,
  app: DeveloperApp | undefined,
): AuthorizationCheck => {
  const clientId = single(params.client_id);
  if (clientId === undefined || clientId === '')
    return { kind: 'page', field: 'client_id', reason: 'is required' };
  if (clientId === null) return { kind: 'page', field: 'client_id', reason: 'is given more than once' };
  if (app === undefined) return { kind: 'page', field: 'client_id', reason: 'names no app' };
  const callbackUrl = app.callbackUrl;
  if (callbackUrl === null)
    return { kind: 'page', field: 'redirect_uri', reason: 'cannot be used: the app has no callback URL' };
  const redirectUri = single(params.redirect_uri);
  if (redirectUri === undefined || redirectUri === '')
    return { kind: 'page', field: 'redirect_uri', reason: 'is required' };
  if (redirectUri === null) return { kind: 'page', field: 'redirect_uri', reason: 'is given more than once' };
  if (redirectUri !== callbackUrl)
    return { kind: 'page', field: 'redirect_uri', reason: "is not the app's callback URL" };

  // From here on the callback is the app's own: errors go back to it (§4.1.2.1).
  const state = single(params.state);
  const echo = typeof state === 'string' && state !== '' ? { state } : {};
  const refuse = (error: string, description: string): AuthorizationCheck => ({
    kind: 'redirect',
    error,
    description,
    ...echo,
  });
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && typeof value !== 'string')
      return refuse('invalid_request', `${name} is given more than once`);
  const p = params as Partial<Record<keyof AuthorizationRequestParams, string>>;
  if (p.response_type !== 'code') return refuse('unsupported_response_type', 'response_type must be code');
  if (app.disabledAt !== null) return refuse('unauthorized_client', 'the app is disabled');
  if (p.state === undefined || p.state === '') return refuse('invalid_request', 'state is required');
  if (p.state.length > 1024) return refuse('invalid_request', 'state must be at most 1024 characters');
  if ((p.scope ?? '').trim() !== '')
    return refuse('invalid_scope', 'no scopes are defined: the app reaches the Sites you allow');
  if (p.code_challenge === undefined) return refuse('invalid_request', 'code_challenge is required (PKCE)');
  if (p.code_challenge_method !== 'S256')
    return refuse('invalid_request', 'code_challenge_method must be S256');
  if (!CODE_CHALLENGE.test(p.code_challenge))
    return refuse('invalid_request', 'code_challenge must be 43 base64url characters');
  return {
    kind: 'consent',
    request: { app, redirectUri, state: p.state, codeChallenge: p.code_challenge },
  };
};

/** Appends the answer to the callback, keeping any query it has (RFC 6749 §3.1.2). */
export const callbackWith = (callback: string, params: Record<string, string | undefined>): string => {
  const url = new URL(callback);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.append(name, value);
  return url.toString();
};

export const isCodeVerifier = (verifier: string): boolean => CODE_VERIFIER.test(verifier);

/** Sites an app may be allowed: the ones ticked (each the user's), else all of the user's. */
export const sitesToGrant = (
  ticked: readonly number[] | undefined,
  userSites: readonly { id: number }[],
): { readonly siteIds: number[] } | { readonly notReachable: number[] } | { readonly none: true } => {
  if (ticked === undefined) {
    if (userSites.length === 0) return { none: true };
    return { siteIds: userSites.map((s) => s.id).slice(0, 100) };
  }
  const beyond = ticked.filter((id) => !userSites.some((s) => s.id === id));
  return beyond.length > 0 ? { notReachable: beyond } : { siteIds: [...ticked] };
};
