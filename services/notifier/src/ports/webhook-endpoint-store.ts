import type * as E from 'fp-ts/lib/Either.js';
import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type {
  PageOf,
  PageRequest,
  WebhookAttemptView,
  WebhookDeliveryStatus,
  WebhookDeliveryView,
  WebhookEventType,
} from '@esign/contracts';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.js';

/** A Site with endpoints and every type one of them listens to. */
export interface SiteSubscriptions {
  readonly siteId: number;
  readonly eventTypes: readonly WebhookEventType[];
}

export interface TooManyEndpoints {
  readonly _tag: 'TooManyEndpoints';
  readonly limit: number;
}

/**
 * The site's endpoints. Every read and write is scoped by site: another site's id is "not
 * found". An outage rejects.
 */
export interface WebhookEndpointStore {
  /** Adds an endpoint unless the site already has `limit` of them. */
  readonly create: (endpoint: WebhookEndpoint, limit: number) => TE.TaskEither<TooManyEndpoints, void>;
  readonly list: (siteId: number, page: PageRequest) => TE.TaskEither<never, PageOf<WebhookEndpoint>>;
  readonly get: (siteId: number, id: string) => TE.TaskEither<never, O.Option<WebhookEndpoint>>;
  /**
   * Reads the endpoint under a row lock, applies `change` and writes its result, in one
   * transaction: two concurrent updates (or an update and a rotation) do not lose either.
   * Turning an endpoint off cancels the deliveries still waiting for it.
   */
  readonly update: <Err>(
    siteId: number,
    id: string,
    change: (current: WebhookEndpoint) => E.Either<Err, WebhookEndpoint>,
  ) => TE.TaskEither<Err, O.Option<WebhookEndpoint>>;
  /**
   * Every Site with at least one endpoint, enabled or not, with the types its endpoints
   * listen to (the fan-out's routes, ADRs 2690 and 3490).
   */
  readonly sitesWithEndpoints: () => TE.TaskEither<never, readonly SiteSubscriptions[]>;
  /** Deletes the endpoint with its deliveries; false when there was none. */
  readonly remove: (siteId: number, id: string) => TE.TaskEither<never, boolean>;
  readonly listDeliveries: (
    siteId: number,
    endpointId: string,
    filter: { readonly status?: WebhookDeliveryStatus },
    page: PageRequest,
  ) => TE.TaskEither<never, PageOf<WebhookDeliveryView>>;
  readonly getDelivery: (
    siteId: number,
    endpointId: string,
    deliveryId: string,
  ) => TE.TaskEither<
    never,
    O.Option<WebhookDeliveryView & { readonly attempt_history: WebhookAttemptView[] }>
  >;
}
