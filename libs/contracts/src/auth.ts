import * as t from 'io-ts';

/**
 * What the gateway vouches for when it forwards an authenticated call: who calls and
 * which sites they reach *now*. It travels as a short-lived JWT the gateway signs
 * (header `X-Esign-Principal`), so a service never trusts a scope it cannot verify.
 */
export const SiteGrant = t.intersection([
  t.type({ id: t.number, name: t.string }),
  /** The Site's default language for its signers (ADR 2320); absent from older principals. */
  t.partial({ default_locale: t.union([t.string, t.null]) }),
]);
export type SiteGrant = t.TypeOf<typeof SiteGrant>;

export const PrincipalClaims = t.type({
  sub: t.string,
  token_id: t.string,
  sites: t.array(SiteGrant),
});
/**
 * Optional claims: `email` is the user's address now, for what a service tells the user
 * themselves (the creator's completion and decline e-mails, ADR 2003). Optional so a
 * principal from a gateway of the previous release still reads during a rolling update.
 */
export const PrincipalOptionalClaims = t.partial({
  email: t.string,
  /** Present and true when the token may create only test-mode Requests (issue #22). */
  test_mode_only: t.boolean,
  /** The origins the token's Developer App lets frame its embedded signing pages (ADR 2300); absent: none. */
  frame_origins: t.array(t.string),
});
export const Principal = t.intersection([PrincipalClaims, PrincipalOptionalClaims]);
export type Principal = t.TypeOf<typeof Principal>;

export const PRINCIPAL_HEADER = 'x-esign-principal';
export const PRINCIPAL_ISSUER = 'esign-gateway';

/**
 * A principal is bound to the one service it is sent to (its `aud`), so a service that
 * receives one cannot replay it at another. Auth takes none: its self-service routes
 * authenticate their callers themselves.
 */
export const PRINCIPAL_AUDIENCES = { requests: 'esign-requests', notifier: 'esign-notifier' } as const;
export type PrincipalAudience = (typeof PRINCIPAL_AUDIENCES)[keyof typeof PRINCIPAL_AUDIENCES];

/**
 * Auth's answer to "is this access token still good, and what does it reach now?"
 * (`POST {AUTH_URL}/internal/introspect`, body `{ token_id }`, header
 * `Authorization: Bearer <INTROSPECTION_SECRET>`, a credential of its own that
 * only the gateway and auth hold). Scope is decided at use: the
 * gateway caches this answer for a few seconds only, so a revocation or a removed
 * membership takes effect within that bound.
 */
export const TokenIntrospection = t.union([
  t.type({ active: t.literal(false) }),
  t.intersection([
    t.type({ active: t.literal(true), sub: t.string, token_id: t.string, sites: t.array(SiteGrant) }),
    t.partial({
      email: t.string,
      /** True: the token may create only test-mode Requests (issue #22); absent: false. */
      test_mode_only: t.boolean,
      frame_origins: t.array(t.string),
    }),
  ]),
]);
export type TokenIntrospection = t.TypeOf<typeof TokenIntrospection>;

export const INTROSPECTION_PATH = '/internal/introspect';

/** Access tokens: EdDSA JWTs, header `typ: at+jwt` and `kid`, verified against auth's JWKS. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
export const ACCESS_TOKEN_AUDIENCE = 'esign-api';
export const JWKS_PATH = '/.well-known/jwks.json';
