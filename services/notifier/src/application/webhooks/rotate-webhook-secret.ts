import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { DEFAULT_SECRET_OVERLAP_SECONDS, type WebhookEndpointWithSecret } from '@esign/contracts';
import { endpointView, rotateSecret } from '../../domain/webhook-endpoint.js';
import type { ManageWebhooksDeps } from './create-webhook-endpoint.js';
import { foundEndpoint, siteFor, type OnEndpoint, type WebhookError } from './webhook-errors.js';

/**
 * Replaces the signing secret and shows the new one once. Until the overlap ends each
 * delivery carries a signature with the new secret and one with the old, so a receiver
 * verifies with either while it switches.
 */
export const rotateWebhookSecret =
  (deps: ManageWebhooksDeps) =>
  (
    input: OnEndpoint & {
      readonly overlapSeconds?: number;
    },
  ): TE.TaskEither<WebhookError, WebhookEndpointWithSecret> =>
    pipe(
      siteFor(input),
      TE.chainW((site) => {
        const now = deps.clock.now();
        const secret = deps.random.secret();
        return deps.endpoints.update(site.id, input.endpointId, (current) =>
          E.right(rotateSecret(current, secret, input.overlapSeconds ?? DEFAULT_SECRET_OVERLAP_SECONDS, now)),
        );
      }),
      TE.chainW(foundEndpoint),
      TE.map((endpoint) => ({ ...endpointView(endpoint, deps.clock.now()), secret: endpoint.secret })),
    );
