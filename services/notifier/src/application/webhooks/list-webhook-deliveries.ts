import {
  pageView,
  type PageRequest,
  type WebhookDeliveryDetail,
  type WebhookDeliveryList,
  type WebhookDeliveryStatus,
} from '@esign/contracts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { ManageWebhooksDeps } from './create-webhook-endpoint.js';
import { foundEndpoint, orMissing, siteFor, type OnEndpoint, type WebhookError } from './webhook-errors.js';

/** The endpoint's recent deliveries, newest first, optionally of one status. */
export const listWebhookDeliveries =
  (deps: Pick<ManageWebhooksDeps, 'endpoints'>) =>
  (
    input: OnEndpoint & {
      readonly status?: WebhookDeliveryStatus;
      readonly page: PageRequest;
    },
  ): TE.TaskEither<WebhookError, WebhookDeliveryList> =>
    pipe(
      siteFor(input),
      TE.chainW((site) =>
        pipe(
          deps.endpoints.get(site.id, input.endpointId),
          TE.chainW(foundEndpoint),
          TE.map(() => site),
        ),
      ),
      TE.chainW((site) =>
        deps.endpoints.listDeliveries(
          site.id,
          input.endpointId,
          input.status === undefined ? {} : { status: input.status },
          input.page,
        ),
      ),
      TE.map((result) => pageView(input.page, result, (d) => d)),
    );

/** One delivery with every attempt: when, what came back, how long it took. */
export const getWebhookDelivery =
  (deps: Pick<ManageWebhooksDeps, 'endpoints'>) =>
  (
    input: OnEndpoint & {
      readonly deliveryId: string;
    },
  ): TE.TaskEither<WebhookError, WebhookDeliveryDetail> =>
    pipe(
      siteFor(input),
      TE.chainW((site) => deps.endpoints.getDelivery(site.id, input.endpointId, input.deliveryId)),
      TE.chainW(orMissing({ _tag: 'DeliveryNotFound' })),
    );
