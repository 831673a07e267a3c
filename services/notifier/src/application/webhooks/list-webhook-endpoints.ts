import {
  pageView,
  type PageRequest,
  type WebhookEndpointList,
  type WebhookEndpointView,
} from '@esign/contracts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { endpointView } from '../../domain/webhook-endpoint.js';
import type { ManageWebhooksDeps } from './create-webhook-endpoint.js';
import { endpointNotFound, siteOf, type Caller, type WebhookError } from './webhook-errors.js';

export const listWebhookEndpoints =
  (deps: Pick<ManageWebhooksDeps, 'endpoints' | 'clock'>) =>
  (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly page: PageRequest;
  }): TE.TaskEither<WebhookError, WebhookEndpointList> =>
    pipe(
      TE.fromEither(siteOf(input.caller, input.siteId)),
      TE.chainW((site) => deps.endpoints.list(site.id, input.page)),
      TE.map(({ items, total }) => {
        const now = deps.clock.now();
        return pageView(input.page, { items, total }, (e) => endpointView(e, now));
      }),
    );

export const getWebhookEndpoint =
  (deps: Pick<ManageWebhooksDeps, 'endpoints' | 'clock'>) =>
  (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly endpointId: string;
  }): TE.TaskEither<WebhookError, WebhookEndpointView> =>
    pipe(
      TE.fromEither(siteOf(input.caller, input.siteId)),
      TE.chainW((site) => deps.endpoints.get(site.id, input.endpointId)),
      TE.chainW((endpoint) =>
        endpoint === undefined
          ? TE.left(endpointNotFound)
          : TE.right(endpointView(endpoint, deps.clock.now())),
      ),
    );
