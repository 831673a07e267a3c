import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { AnyEventEnvelope, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@esign/contracts';
import type { Logger } from '@esign/platform';
import { createEventConsumer, siteRoutingKey, type EventConsumer } from '@esign/platform/messaging';
import type { FanOutReport } from '../../application/webhooks/fan-out-webhook-event.js';
import type { SiteSubscriptions } from '../../ports/webhook-endpoint-store.js';
import type { RoutingUnavailable, WebhookRouting } from '../../ports/webhook-routing.js';

export const WEBHOOK_CONSUMER_NAME = 'notifier-webhooks';

export interface WebhookEventConsumerOptions {
  readonly prefix: string;
  readonly logger: Logger;
  readonly retryDelaysMs: readonly number[];
  readonly prefetch: number;
  readonly fanOut: (event: AnyEventEnvelope) => TE.TaskEither<never, FanOutReport>;
  /** The Sites whose events the queue takes: those with endpoints, and what they listen to (read at every setup). */
  readonly sitesWithEndpoints: () => TE.TaskEither<never, readonly SiteSubscriptions[]>;
  /** How long creating an endpoint waits for the broker to route its Site (5 s). */
  readonly bindTimeoutMs?: number;
}

/**
 * Types routed to the queue only for a Site one of whose endpoints listens to them (ADR
 * 3490): every create publishes a `request.created`, so a Site whose endpoints want other
 * events must not cost the notifier a message per create (ADR 2503).
 */
export const ROUTED_WHEN_SUBSCRIBED: readonly WebhookEventType[] = ['request.created'];

/**
 * The queue's bindings for one Site: each type a client can subscribe to, on its Site key;
 * one of `ROUTED_WHEN_SUBSCRIBED` only when `eventTypes`, what its endpoints listen to, has it.
 */
export const siteWebhookKeys = (siteId: number, eventTypes: readonly WebhookEventType[]): string[] =>
  WEBHOOK_EVENT_TYPES.filter(
    (type) => !ROUTED_WHEN_SUBSCRIBED.includes(type) || eventTypes.includes(type),
  ).map((type) => siteRoutingKey(siteId, type));

/**
 * The events a client can subscribe to (`WEBHOOK_EVENT_TYPES`), on the notifier's second
 * queue (`<prefix>.notifier-webhooks`), read through the generic envelope. Bound by Site
 * and type (ADR 2690): only the Sites that have endpoints (`site.<id>.<type>`, the key
 * the outbox adds to every event), so the events of the many Sites without one cost the
 * notifier nothing, and never by type alone. The handler only writes the deliveries
 * (idempotently, by event id) and acks; a store outage rejects and the event goes
 * through the back-off queues.
 */
export const webhookEventConsumer = (
  options: WebhookEventConsumerOptions,
): EventConsumer & { readonly routing: WebhookRouting } => {
  const log = options.logger.child({ component: 'webhook-event-consumer' });
  const consumer = createEventConsumer({
    prefix: options.prefix,
    name: WEBHOOK_CONSUMER_NAME,
    routingKeys: [],
    // `request.*` was bound until ADR 2503, each type alone until ADR 2690: removed so a
    // broker that ran an earlier version stops routing every Site's events here.
    formerRoutingKeys: ['request.*', ...WEBHOOK_EVENT_TYPES],
    storedRoutingKeys: async () =>
      E.toUnion(await options.sitesWithEndpoints()()).flatMap((site) =>
        siteWebhookKeys(site.siteId, site.eventTypes),
      ),
    codec: AnyEventEnvelope,
    logger: options.logger,
    prefetch: options.prefetch,
    retryDelaysMs: options.retryDelaysMs,
    bindTimeoutMs: options.bindTimeoutMs,
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
  const routing: WebhookRouting = {
    follow: (siteId, eventTypes) =>
      TE.tryCatch(
        () => consumer.bind(siteWebhookKeys(siteId, eventTypes)),
        (error): RoutingUnavailable => ({
          _tag: 'RoutingUnavailable',
          reason: error instanceof Error ? error.message : String(error),
        }),
      ),
  };
  return { ...consumer, routing };
};
