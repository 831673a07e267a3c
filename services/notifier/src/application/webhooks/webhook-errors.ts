import * as E from 'fp-ts/lib/Either.js';
import type * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { SiteGrant } from '@esign/contracts';
import type { DestinationProblem } from '../../ports/destination-guard.js';
import type { TooManyEndpoints } from '../../ports/webhook-endpoint-store.js';
import type { RoutingUnavailable } from '../../ports/webhook-routing.js';

/** Who calls, as the gateway vouches for it: the sites the caller reaches now. */
export interface Caller {
  readonly sites: readonly SiteGrant[];
}

/**
 * Every expected failure of the webhook API; the HTTP adapter maps each to one answer.
 * A store outage is not one of them: its promise rejects.
 */
export type WebhookError =
  | { readonly _tag: 'SiteNotFound' }
  | { readonly _tag: 'EndpointNotFound' }
  | { readonly _tag: 'DeliveryNotFound' }
  | DestinationProblem
  | TooManyEndpoints
  | RoutingUnavailable;

/**
 * The site, when the caller reaches it. A site outside the caller's scope is answered
 * exactly like one that does not exist, so ids cannot be probed.
 */
export const siteOf = (caller: Caller, siteId: number): E.Either<WebhookError, SiteGrant> => {
  const site = caller.sites.find((s) => s.id === siteId);
  return site === undefined ? E.left({ _tag: 'SiteNotFound' }) : E.right(site);
};

export const endpointNotFound: WebhookError = { _tag: 'EndpointNotFound' };

/** What every webhook call names: who calls and the Site it acts on. */
export interface OnSite {
  readonly caller: Caller;
  readonly siteId: number;
}

/** A call on one endpoint of a Site. */
export interface OnEndpoint extends OnSite {
  readonly endpointId: string;
}

/** `siteOf` the call's caller and Site, to start a use case's pipe. */
export const siteFor = (input: OnSite): TE.TaskEither<WebhookError, SiteGrant> =>
  TE.fromEither(siteOf(input.caller, input.siteId));

/** What a store found, or `missing` when it found nothing. */
export const orMissing =
  <A>(missing: WebhookError) =>
  (found: O.Option<A>): TE.TaskEither<WebhookError, A> =>
    TE.fromOption(() => missing)(found);

/** The endpoint a store found, or `EndpointNotFound`. */
export const foundEndpoint = <A>(found: O.Option<A>): TE.TaskEither<WebhookError, A> =>
  orMissing<A>(endpointNotFound)(found);
