import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { WebhookEventType } from '@esign/contracts';

/** The broker could not be told to route a Site's events to the webhook queue. */
export interface RoutingUnavailable {
  readonly _tag: 'RoutingUnavailable';
  readonly reason: string;
}

/**
 * Which Sites' events reach the webhook fan-out (ADR 2690). The events of a Site that no
 * endpoint ever listened on are not delivered to the notifier at all; `follow` makes
 * the broker route the Site's webhook events here from now on, before its first endpoint
 * is written, so no event after the endpoint's creation is missed. Idempotent.
 * `eventTypes` are those the endpoint listens to: a type routed only to the Sites that
 * want it (`request.created`, ADR 3490) is routed once one of them is among them.
 */
export interface WebhookRouting {
  readonly follow: (
    siteId: number,
    eventTypes: readonly WebhookEventType[],
  ) => TE.TaskEither<RoutingUnavailable, void>;
}
