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
import { foundEndpoint, siteFor, type OnEndpoint, type OnSite, type WebhookError } from './webhook-errors.js';

export const listWebhookEndpoints =
  (deps: Pick<ManageWebhooksDeps, 'endpoints' | 'clock'>) =>
  (
    input: OnSite & {
      readonly page: PageRequest;
    },
  ): TE.TaskEither<WebhookError, WebhookEndpointList> =>
    pipe(
      siteFor(input),
      TE.chainW((site) => deps.endpoints.list(site.id, input.page)),
      TE.map(({ items, total }) => {
        const now = deps.clock.now();
        return pageView(input.page, { items, total }, (e) => endpointView(e, now));
      }),
    );

export const getWebhookEndpoint =
  (deps: Pick<ManageWebhooksDeps, 'endpoints' | 'clock'>) =>
  (input: OnEndpoint): TE.TaskEither<WebhookError, WebhookEndpointView> =>
    pipe(
      siteFor(input),
      TE.chainW((site) => deps.endpoints.get(site.id, input.endpointId)),
      TE.chainW(foundEndpoint),
      TE.map((endpoint) => endpointView(endpoint, deps.clock.now())),
    );
