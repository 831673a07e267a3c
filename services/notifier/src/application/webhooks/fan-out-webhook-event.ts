import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { AnyEventEnvelope } from '@esign/contracts';
import { deliverable, webhookPayload } from '../../domain/webhook-delivery.js';
import type { WebhookDeliveryStore } from '../../ports/webhook-delivery-store.js';

export type FanOutReport =
  { readonly _tag: 'NotDeliverable' } | { readonly _tag: 'FannedOut'; readonly deliveries: number };

/**
 * Turns one event into one delivery per subscribed endpoint, and nothing else: sending
 * is the dispatcher's job, on its own schedule, so the event is acked at once and a
 * slow or failing endpoint never holds up the queue.
 */
export const fanOutWebhookEvent =
  (deps: { readonly deliveries: WebhookDeliveryStore; readonly wake: () => void }) =>
  (event: AnyEventEnvelope): TE.TaskEither<never, FanOutReport> => {
    if (!deliverable(event)) return TE.right({ _tag: 'NotDeliverable' });
    return pipe(
      deps.deliveries.fanOut(event, webhookPayload(event)),
      TE.map((deliveries): FanOutReport => {
        if (deliveries > 0) deps.wake();
        return { _tag: 'FannedOut', deliveries };
      }),
    );
  };
