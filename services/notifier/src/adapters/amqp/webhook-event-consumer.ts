import * as TE from 'fp-ts/lib/TaskEither.js';
import { AnyEventEnvelope, WEBHOOK_EVENT_TYPES } from '@esign/contracts';
import { createEventConsumer, type EventConsumer, type Logger } from '@esign/platform';
import type { FanOutReport } from '../../application/webhooks/fan-out-webhook-event.js';

export const WEBHOOK_CONSUMER_NAME = 'notifier-webhooks';

export interface WebhookEventConsumerOptions {
  readonly prefix: string;
  readonly logger: Logger;
  readonly retryDelaysMs: readonly number[];
  readonly prefetch: number;
  readonly fanOut: (event: AnyEventEnvelope) => TE.TaskEither<never, FanOutReport>;
}

/**
 * The `request.*` events a client can subscribe to (`WEBHOOK_EVENT_TYPES`), on the
 * notifier's second queue (`<prefix>.notifier-webhooks`), read through the generic
 * envelope. Bound by type rather than `request.*`, so the others (every create's
 * `request.created` first) never reach this queue (ADR 2503). The
 * handler only writes the deliveries (idempotently, by event id) and acks; a store outage
 * rejects and the event goes through the back-off queues.
 */
export const webhookEventConsumer = (options: WebhookEventConsumerOptions): EventConsumer => {
  const log = options.logger.child({ component: 'webhook-event-consumer' });
  return createEventConsumer({
    prefix: options.prefix,
    name: WEBHOOK_CONSUMER_NAME,
    routingKeys: WEBHOOK_EVENT_TYPES,
    // Bound until ADR 2503; removed so brokers that ran the earlier version stop routing
    // every request event here.
    formerRoutingKeys: ['request.*'],
    codec: AnyEventEnvelope,
    logger: options.logger,
    prefetch: options.prefetch,
    retryDelaysMs: options.retryDelaysMs,
    handle: async (event) => {
      const report = await TE.toUnion(options.fanOut(event))();
      if (report._tag === 'FannedOut' && report.deliveries > 0)
        log.info(
          {
            event_id: event.id,
            event_type: event.type,
            site_id: event.site_id,
            deliveries: report.deliveries,
          },
          'webhook deliveries scheduled',
        );
    },
  });
};
