import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { CreateWebhookEndpointBody, WebhookEndpointWithSecret } from '@esign/contracts';
import { endpointView, MAX_ENDPOINTS_PER_SITE, type WebhookEndpoint } from '../../domain/webhook-endpoint.js';
import type { DestinationGuard } from '../../ports/destination-guard.js';
import type { Clock } from '../../ports/runtime.js';
import type { WebhookEndpointStore } from '../../ports/webhook-endpoint-store.js';
import type { WebhookRouting } from '../../ports/webhook-routing.js';
import type { WebhookRandom } from '../../ports/webhook-runtime.js';
import { siteFor, type OnSite, type WebhookError } from './webhook-errors.js';

export interface ManageWebhooksDeps {
  readonly endpoints: WebhookEndpointStore;
  readonly guard: DestinationGuard;
  readonly random: WebhookRandom;
  readonly clock: Clock;
  /** Routes a Site's events to the fan-out before its first endpoint exists (ADR 2690). */
  readonly routing: WebhookRouting;
}

/**
 * Registers an endpoint after checking its URL (scheme, and every address its host
 * resolves to). The answer carries the signing secret: the only time it is shown.
 * The broker is told to route the Site's events here first: when it cannot be, nothing
 * is written and the call is refused (503), since the endpoint would miss events.
 */
export const createWebhookEndpoint =
  (deps: ManageWebhooksDeps) =>
  (
    input: OnSite & {
      readonly body: CreateWebhookEndpointBody;
    },
  ): TE.TaskEither<WebhookError, WebhookEndpointWithSecret> =>
    pipe(
      siteFor(input),
      TE.chainFirstW(() => deps.guard.check(input.body.url)),
      TE.chainFirstW((site) => deps.routing.follow(site.id, input.body.event_types)),
      TE.chainW((site) => {
        const now = deps.clock.now();
        const endpoint: WebhookEndpoint = {
          id: deps.random.uuid(),
          siteId: site.id,
          siteName: site.name,
          url: input.body.url,
          description: input.body.description ?? '',
          eventTypes: input.body.event_types,
          enabled: input.body.enabled ?? true,
          disabledReason: null,
          alertEmail: input.body.alert_email,
          secret: deps.random.secret(),
          previousSecret: null,
          previousSecretExpiresAt: null,
          failingSince: null,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        };
        return pipe(
          deps.endpoints.create(endpoint, MAX_ENDPOINTS_PER_SITE),
          TE.map(() => ({ ...endpointView(endpoint, now), secret: endpoint.secret })),
        );
      }),
    );
