import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { GatewayError } from '../domain/gateway-error.js';
import type { RouteSpec, SiteRef } from '../domain/route-table.js';
import { reachesSite } from '../domain/site-scope.js';
import type { PolicyStatus, RatePolicy } from '../domain/token-bucket.js';
import type { RateCharge, RateLimiter } from '../ports/rate-limiter.js';
import type { Authenticate } from './authenticate.js';

/** A policy left out is switched off. */
export interface RatePolicies {
  /** Every authenticated call, per token. */
  readonly token?: RatePolicy;
  /** Every authenticated call that names a site, per site (all tokens on it together). */
  readonly site?: RatePolicy;
  /** Calls that cost money (send, remind), per token, on top of the others. */
  readonly costly?: RatePolicy;
  /**
   * The same calls by a test-only token, which can only reach test-mode Requests (nothing
   * is sent): their own, more generous bucket instead of `costly` (issue #22).
   */
  readonly costlyTest?: RatePolicy;
  /** Calls to `anonymous` routes, per client address. */
  readonly anonymous?: RatePolicy;
}

export interface Admission {
  /** The signed principal to forward; absent on pass-through routes. */
  readonly forwardedPrincipal: string | undefined;
  /** Rate-limit standing to advertise; empty on pass-through routes. */
  readonly rate: readonly PolicyStatus[];
}

export interface AdmitInput {
  readonly route: RouteSpec;
  readonly site: SiteRef | undefined;
  readonly authorization: string | undefined;
  /** The caller's address as the gateway knows it (for `anonymous` routes' limit). */
  readonly clientAddress?: string;
}

export type Admit = (input: AdmitInput) => TE.TaskEither<GatewayError, Admission>;

const PASS_THROUGH: Admission = { forwardedPrincipal: undefined, rate: [] };

/**
 * Decides whether a matched call may go upstream: authenticate, then site scope, then
 * rate limits. Scope comes before limits so that probing another site's ids neither
 * spends that site's allowance nor tells the prober anything through its headers.
 */
export const admit =
  (ports: {
    readonly authenticate: Authenticate;
    readonly limit: RateLimiter;
    readonly policies: RatePolicies;
  }): Admit =>
  ({ route, site, authorization, clientAddress }) => {
    if (route.access === 'public') return TE.right(PASS_THROUGH);
    const { policies } = ports;
    if (route.access === 'anonymous') {
      if (policies.anonymous === undefined) return TE.right(PASS_THROUGH);
      return limited(
        ports.limit,
        [{ policy: policies.anonymous, key: `client:${clientAddress ?? 'unknown'}` }],
        undefined,
      );
    }
    return pipe(
      ports.authenticate(authorization),
      TE.filterOrElse(
        (who) => site === undefined || reachesSite(who.principal.sites, site),
        (): GatewayError => ({ _tag: 'SiteNotFound' }),
      ),
      TE.chain((who) => {
        const tokenId = who.claims.jti;
        const charges: RateCharge[] = [];
        if (policies.token !== undefined) charges.push({ policy: policies.token, key: tokenId });
        if (policies.site !== undefined && site?.id !== undefined) {
          charges.push({ policy: policies.site, key: String(site.id) });
        }
        const costly = who.principal.test_mode_only === true ? policies.costlyTest : policies.costly;
        if (costly !== undefined && route.cost === 'costly') charges.push({ policy: costly, key: tokenId });
        // The principal addressed to this route's service: no other service would take it.
        const forwardedPrincipal = route.upstream === 'auth' ? undefined : who.forwarded[route.upstream];
        if (charges.length === 0) return TE.right({ forwardedPrincipal, rate: [] });
        return limited(ports.limit, charges, forwardedPrincipal);
      }),
    );
  };

const limited = (
  limit: RateLimiter,
  charges: readonly RateCharge[],
  forwardedPrincipal: string | undefined,
): TE.TaskEither<GatewayError, Admission> =>
  pipe(
    limit(charges),
    TE.map((rate) => ({ forwardedPrincipal, rate })),
  );
