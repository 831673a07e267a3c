import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { ManageWebhooksDeps } from './create-webhook-endpoint.js';
import { endpointNotFound, siteFor, type OnEndpoint, type WebhookError } from './webhook-errors.js';

/** Deletes an endpoint and its delivery history; nothing more is sent to it. */
export const deleteWebhookEndpoint =
  (deps: Pick<ManageWebhooksDeps, 'endpoints'>) =>
  (input: OnEndpoint): TE.TaskEither<WebhookError, void> =>
    pipe(
      siteFor(input),
      TE.chainW((site) => deps.endpoints.remove(site.id, input.endpointId)),
      TE.chainW((removed) => (removed ? TE.right(undefined) : TE.left(endpointNotFound))),
    );
