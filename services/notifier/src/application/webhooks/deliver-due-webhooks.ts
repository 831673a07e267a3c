import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  WEBHOOK_DELIVERY_ID_HEADER,
  WEBHOOK_EVENT_TYPE_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
} from '@esign/contracts';
import {
  healthAfter,
  nextStep,
  type AttemptResult,
  type NextStep,
  type RetryPolicy,
} from '../../domain/webhook-delivery.js';
import { signingSecrets } from '../../domain/webhook-endpoint.js';
import type { Clock } from '../../ports/runtime.js';
import type { ClaimedDelivery, WebhookDeliveryStore } from '../../ports/webhook-delivery-store.js';
import type { WebhookRandom } from '../../ports/webhook-runtime.js';
import type { WebhookSender } from '../../ports/webhook-sender.js';
import type { WebhookSignature } from '../../ports/webhook-signature.js';
import { runLimited } from '../run-limited.js';

export const WEBHOOK_USER_AGENT = 'Esign-Webhooks/1.1';

export interface DeliverWebhooksDeps {
  readonly deliveries: WebhookDeliveryStore;
  readonly sender: WebhookSender;
  readonly signature: WebhookSignature;
  readonly clock: Clock;
  readonly random: Pick<WebhookRandom, 'jitter'>;
  readonly policy: RetryPolicy;
  /** An endpoint failing every attempt for this long is turned off. */
  readonly disableAfterMs: number;
  /** How long a claimed delivery keeps other workers off: above the sender's worst case. */
  readonly leaseMs: number;
  /** Deliveries claimed and sent at once. */
  readonly concurrency: number;
}

export type DeliveryOutcome =
  | {
      readonly _tag: 'Attempted';
      readonly result: AttemptResult;
      readonly step: NextStep;
      readonly disabled: boolean;
    }
  /** Its lease ran out mid-attempt and another worker owns it now: this attempt is not recorded. */
  | { readonly _tag: 'Superseded' }
  /** Its endpoint was turned off after the delivery was made: not sent. */
  | { readonly _tag: 'Cancelled' };

export interface DispatchReport {
  readonly deliveries: readonly { readonly delivery: ClaimedDelivery; readonly outcome: DeliveryOutcome }[];
}

const deliverOne = (
  deps: DeliverWebhooksDeps,
  delivery: ClaimedDelivery,
): TE.TaskEither<never, DeliveryOutcome> => {
  if (!delivery.endpoint.enabled)
    return pipe(
      deps.deliveries.cancel(delivery, 'endpoint disabled'),
      TE.map((): DeliveryOutcome => ({ _tag: 'Cancelled' })),
    );
  const startedAt = deps.clock.now();
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  return pipe(
    deps.sender.send({
      url: delivery.endpoint.url,
      body: delivery.payload,
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        [WEBHOOK_SIGNATURE_HEADER]: deps.signature(
          signingSecrets(delivery.endpoint, startedAt),
          timestamp,
          delivery.payload,
        ),
        [WEBHOOK_EVENT_TYPE_HEADER]: delivery.eventType,
        [WEBHOOK_DELIVERY_ID_HEADER]: delivery.id,
      },
    }),
    TE.chain((result) => {
      const finishedAt = deps.clock.now();
      const step = nextStep(
        result,
        delivery.attempt,
        delivery.createdAt,
        finishedAt,
        deps.policy,
        deps.random.jitter(),
      );
      return pipe(
        deps.deliveries.recordAttempt({
          delivery,
          result,
          step,
          startedAt,
          finishedAt,
          health: (current) =>
            healthAfter(current, step._tag === 'Delivered', finishedAt, deps.disableAfterMs),
        }),
        TE.map((recorded): DeliveryOutcome =>
          recorded.recorded
            ? { _tag: 'Attempted', result, step, disabled: recorded.disabled }
            : { _tag: 'Superseded' },
        ),
      );
    }),
  );
};

/**
 * One round of the dispatcher: claims the deliveries that are due, signs each with the
 * secrets in force at this moment (a fresh timestamp per attempt), sends them in
 * parallel, and records every attempt with the delivery's next step and the endpoint's
 * health. Rejects only when the store is unreachable; the next round tries again.
 */
export const deliverDueWebhooks = (deps: DeliverWebhooksDeps): TE.TaskEither<never, DispatchReport> =>
  pipe(
    deps.deliveries.claimDue(deps.concurrency, deps.leaseMs),
    TE.chain((claimed) =>
      TE.rightTask(async () => {
        const outcomes = await runLimited(
          // Each delivery's clock reading and signature are taken when it is sent.
          claimed.map((delivery) => () => TE.toUnion(deliverOne(deps, delivery))()),
          deps.concurrency,
        );
        return { deliveries: claimed.map((delivery, i) => ({ delivery, outcome: outcomes[i]! })) };
      }),
    ),
  );
