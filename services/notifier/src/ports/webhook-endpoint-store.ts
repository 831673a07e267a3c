import type * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type {
  PageOf,
  PageRequest,
  WebhookAttemptView,
  WebhookDeliveryStatus,
  WebhookDeliveryView,
} from '@esign/contracts';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.js';
import type { StoreUnavailable } from './delivery-store.js';

export interface TooManyEndpoints {
  readonly _tag: 'TooManyEndpoints';
  readonly limit: number;
}

/** The site's endpoints. Every read and write is scoped by site: another site's id is "not found". */
export interface WebhookEndpointStore {
  /** Adds an endpoint unless the site already has `limit` of them. */
  readonly create: (
    endpoint: WebhookEndpoint,
    limit: number,
  ) => TE.TaskEither<StoreUnavailable | TooManyEndpoints, void>;
  readonly list: (
    siteId: number,
    page: PageRequest,
  ) => TE.TaskEither<StoreUnavailable, PageOf<WebhookEndpoint>>;
  readonly get: (siteId: number, id: string) => TE.TaskEither<StoreUnavailable, WebhookEndpoint | undefined>;
  /**
   * Reads the endpoint under a row lock, applies `change` and writes its result, in one
   * transaction: two concurrent updates (or an update and a rotation) do not lose either.
   * Turning an endpoint off cancels the deliveries still waiting for it.
   */
  readonly update: <Err>(
    siteId: number,
    id: string,
    change: (current: WebhookEndpoint) => E.Either<Err, WebhookEndpoint>,
  ) => TE.TaskEither<StoreUnavailable | Err, WebhookEndpoint | undefined>;
  /** Deletes the endpoint with its deliveries; false when there was none. */
  readonly remove: (siteId: number, id: string) => TE.TaskEither<StoreUnavailable, boolean>;
  readonly listDeliveries: (
    siteId: number,
    endpointId: string,
    filter: { readonly status?: WebhookDeliveryStatus },
    page: PageRequest,
  ) => TE.TaskEither<StoreUnavailable, PageOf<WebhookDeliveryView>>;
  readonly getDelivery: (
    siteId: number,
    endpointId: string,
    deliveryId: string,
  ) => TE.TaskEither<
    StoreUnavailable,
    (WebhookDeliveryView & { readonly attempt_history: WebhookAttemptView[] }) | undefined
  >;
}
