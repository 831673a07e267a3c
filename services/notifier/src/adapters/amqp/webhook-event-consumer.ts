import { AnyEventEnvelope } from '@esign/contracts';
import { createEventConsumer, type EventConsumer, type Logger } from '@esign/platform';
import type { FanOutReport } from '../../application/webhooks/fan-out-webhook-event.js';

export const WEBHOOK_CONSUMER_NAME = 'notifier-webhooks';

export interface WebhookEventConsumerOptions {
  readonly prefix: string;
  readonly logger: Logger;
  readonly retryDelaysMs: readonly number[];
  readonly prefetch: number;
  readonly fanOut: (event: AnyEventEnvelope) => Promise<FanOutReport>;
}

/**
 * Every `request.*` event, on the notifier's second queue (`<prefix>.notifier-webhooks`),
 * read through the generic envelope so a new request event needs no codec here. The
 * handler only writes the deliveries (idempotently, by event id) and acks; a store outage
 * throws and the event goes through the back-off queues.
 */
export const webhookEventConsumer = (options: WebhookEventConsumerOptions): EventConsumer => {
  const log = options.logger.child({ component: 'webhook-event-consumer' });
  return createEventConsumer({
    prefix: options.prefix,
    name: WEBHOOK_CONSUMER_NAME,
    routingKeys: ['request.*', 'bulk_send.*'],
    codec: AnyEventEnvelope,
    logger: options.logger,
    prefetch: options.prefetch,
    retryDelaysMs: options.retryDelaysMs,
    handle: async (event) => {
      const report = await options.fanOut(event);
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
