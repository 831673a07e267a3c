import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Clock, Principal } from '@esign/contracts';
import { bearerTokenOf, hasExpired, type AccessTokenClaims } from '../domain/access-token.js';
import { gatewayError, type GatewayError } from '../domain/gateway-error.js';
import type { AccessTokenVerifier } from '../ports/access-token-verifier.js';
import type { ForwardedPrincipals, PrincipalResolver } from './resolve-principal.js';

export interface Authenticated {
  readonly claims: AccessTokenClaims;
  readonly principal: Principal;
  /** The signed principals for `x-esign-principal`, one per upstream service. */
  readonly forwarded: ForwardedPrincipals;
}

export type Authenticate = (authorization: string | undefined) => TE.TaskEither<GatewayError, Authenticated>;

/**
 * A call is authenticated when its bearer token verifies offline (signature, algorithm,
 * type, issuer, audience, expiry) and auth says, now, that the token is active. When
 * either check cannot be made the task rejects (`AuthUnavailable`), never a pass. `verify`
 * may reuse an earlier verdict on the same token, so expiry is checked here, on every call.
 */
export const authenticate =
  (ports: {
    readonly verify: AccessTokenVerifier;
    readonly resolve: PrincipalResolver;
    readonly clock: Clock;
  }): Authenticate =>
  (authorization) => {
    const bearer = bearerTokenOf(authorization);
    if (bearer._tag === 'Missing') return TE.left(gatewayError.missingToken);
    if (bearer._tag === 'Malformed') return TE.left(gatewayError.tokenRejected('malformed'));
    return pipe(
      ports.verify(bearer.token),
      TE.mapLeft((failure) => gatewayError.tokenRejected(failure.reason)),
      TE.filterOrElse(
        (claims) => !hasExpired(claims, ports.clock.now().getTime()),
        () => gatewayError.tokenRejected('expired'),
      ),
      TE.chain((claims) =>
        pipe(
          ports.resolve(claims.jti),
          TE.chainW((resolution) =>
            // An answer about another token or subject is not an answer about this one.
            resolution.active &&
            resolution.principal.token_id === claims.jti &&
            resolution.principal.sub === claims.sub
              ? TE.right({ claims, principal: resolution.principal, forwarded: resolution.forwarded })
              : TE.left(gatewayError.tokenInactive),
          ),
        ),
      ),
    );
  };
