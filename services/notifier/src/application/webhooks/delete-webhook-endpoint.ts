import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { ManageWebhooksDeps } from './create-webhook-endpoint.js';
import { endpointNotFound, siteOf, type Caller, type WebhookError } from './webhook-errors.js';

/** Deletes an endpoint and its delivery history; nothing more is sent to it. */
export const deleteWebhookEndpoint =
  (deps: Pick<ManageWebhooksDeps, 'endpoints'>) =>
  (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly endpointId: string;
  }): TE.TaskEither<WebhookError, void> =>
    pipe(
      TE.fromEither(siteOf(input.caller, input.siteId)),
      TE.chainW((site) => deps.endpoints.remove(site.id, input.endpointId)),
      TE.chainW((removed) => (removed ? TE.right(undefined) : TE.left(endpointNotFound))),
    );
