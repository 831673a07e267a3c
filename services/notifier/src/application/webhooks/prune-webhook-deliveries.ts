import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Clock } from '../../ports/runtime.js';
import type { WebhookDeliveryStore } from '../../ports/webhook-delivery-store.js';

export interface PruneWebhookDeliveriesDeps {
  readonly deliveries: Pick<WebhookDeliveryStore, 'prune'>;
  readonly clock: Clock;
  /** Settled deliveries older than this are deleted. */
  readonly retentionMs: number;
  /** At most one pass per this long, by the clock. */
  readonly everyMs: number;
  /** Rows deleted per pass, so one pass never holds the table for long. */
  readonly batch: number;
}

/**
 * Deletes settled deliveries past the retention, at most once every `everyMs`. Time is
 * the clock's, as in every other webhook rule. Answers how many rows went (0 when not due).
 */
export const pruneWebhookDeliveries = (deps: PruneWebhookDeliveriesDeps): TE.TaskEither<never, number> => {
  let lastPass: number | undefined;
  return () => {
    const now = deps.clock.now().getTime();
    if (lastPass !== undefined && now - lastPass < deps.everyMs) return TE.right(0)();
    lastPass = now;
    return deps.deliveries.prune(new Date(now - deps.retentionMs), deps.batch)();
  };
};
