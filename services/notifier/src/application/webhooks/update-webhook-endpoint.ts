import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { UpdateWebhookEndpointBody, WebhookEndpointView } from '@esign/contracts';
import { endpointView, updateEndpoint } from '../../domain/webhook-endpoint.js';
import type { ManageWebhooksDeps } from './create-webhook-endpoint.js';
import { foundEndpoint, siteFor, type OnEndpoint, type WebhookError } from './webhook-errors.js';

/**
 * Changes an endpoint's URL, event types, alert address, description or on/off switch.
 * A new URL is checked as at registration. Turning it off cancels its waiting deliveries.
 * New event types are routed to the fan-out first (one routed only on demand, ADR 3490): when
 * the broker cannot be told, nothing is written and the call is refused (503).
 */
export const updateWebhookEndpoint =
  (deps: ManageWebhooksDeps) =>
  (
    input: OnEndpoint & {
      readonly body: UpdateWebhookEndpointBody;
    },
  ): TE.TaskEither<WebhookError, WebhookEndpointView> =>
    pipe(
      siteFor(input),
      TE.chainFirstW(() =>
        input.body.url === undefined ? TE.right(undefined) : deps.guard.check(input.body.url),
      ),
      TE.chainFirstW((site) =>
        input.body.event_types === undefined
          ? TE.right(undefined)
          : deps.routing.follow(site.id, input.body.event_types),
      ),
      TE.chainW((site) => {
        const now = deps.clock.now();
        const { url, event_types, alert_email, description, enabled } = input.body;
        return deps.endpoints.update(site.id, input.endpointId, (current) =>
          E.right(
            updateEndpoint(
              current,
              {
                ...(url !== undefined && { url }),
                ...(event_types !== undefined && { eventTypes: event_types }),
                ...(alert_email !== undefined && { alertEmail: alert_email }),
                ...(description !== undefined && { description }),
                ...(enabled !== undefined && { enabled }),
              },
              site.name,
              now,
            ),
          ),
        );
      }),
      TE.chainW(foundEndpoint),
      TE.map((endpoint) => endpointView(endpoint, deps.clock.now())),
    );
