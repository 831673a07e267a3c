import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { NotificationDelivered, NotificationFailed, RequestDeliveryFailed } from '@esign/contracts';
import type { Delivery } from '../domain/request-model.js';
import type { DeliveryOutcomeResult } from '../ports/delivery-outcome-store.js';
import type { Deps } from './deps.js';

export const NOTIFICATION_OUTCOMES_CONSUMER = 'requests.notification-outcomes';

export type OutcomeResult = DeliveryOutcomeResult;

type Report = NotificationDelivered | NotificationFailed;

const deliveryOf = (event: Report): Delivery => ({
  outcome:
    event.type === 'notification.delivered'
      ? 'delivered'
      : event.data.reason === 'quota_exceeded'
        ? 'quota_exceeded'
        : 'failed',
  at: event.occurred_at,
  eventId: event.id,
  error: event.data.error ?? null,
});

/**
 * What the client is told of a failure (ADR 3180): `request.delivery_failed`, for the
 * store to publish and keep in the Request's history only if the report becomes the
 * signer's status. It happened when the message failed, and carries the Request's test
 * mark as the report does. Its `error` is the provider's answer about this recipient (or
 * the quota's), never an outage's: a refused connection or our own rejected credentials
 * tell the client nothing and name our infrastructure.
 */
const failureNotice = (event: Report, delivery: Delivery, id: string): RequestDeliveryFailed | undefined =>
  delivery.outcome === 'delivered'
    ? undefined
    : {
        id,
        type: 'request.delivery_failed',
        occurred_at: event.occurred_at,
        site_id: event.site_id,
        aggregate_id: event.data.request_id,
        data: {
          request_id: event.data.request_id,
          signer_id: event.data.signer_id,
          signer_ref: event.data.signer_ref,
          channel: event.data.channel,
          status: delivery.outcome,
          error:
            event.data.permanent === true || delivery.outcome === 'quota_exceeded' ? delivery.error : null,
          failed_at: event.occurred_at,
          ...(event.data.to === undefined ? {} : { to: event.data.to }),
        },
        ...(event.test_mode === true && { test_mode: true as const }),
      };

/**
 * Applies the notifier's report on one message, once per event id, so `GET` shows each
 * signer's e-mail and SMS status, and a failure that becomes a signer's status is told to
 * the client (ADR 3180). A report about a Request this service does not have (or not on
 * the event's site) is acknowledged and dropped, and so is one about an address the
 * sender has since corrected (ADR 3140) or a signer since replaced (ADR 3550). One
 * statement outside a transaction (ADR 2650): the inbox claim, the signer's status and the
 * failure's event, nothing else read.
 */
export const recordNotificationOutcome =
  (deps: Pick<Deps, 'autocommit' | 'ids'>) =>
  (event: Report): TE.TaskEither<never, OutcomeResult> => {
    const delivery = deliveryOf(event);
    const notice = failureNotice(event, delivery, deps.ids.eventId());
    return deps.autocommit((store) =>
      store.deliveries.record({
        consumer: NOTIFICATION_OUTCOMES_CONSUMER,
        eventId: event.id,
        requestId: event.data.request_id,
        siteId: event.site_id,
        signerRef: event.data.signer_ref,
        signerId: event.data.signer_id,
        channel: event.data.channel,
        delivery,
        ...(event.data.to === undefined ? {} : { to: event.data.to }),
        ...(notice === undefined ? {} : { notice }),
      }),
    );
  };
