import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import { NotificationDelivered, NotificationFailed } from '@esign/contracts';
import type { Logger } from '@esign/platform';
import { createEventConsumer, type EventConsumer } from '@esign/platform/messaging';
import { NOTIFICATION_OUTCOMES_CONSUMER, type OutcomeResult } from '../../application/delivery-outcomes.js';

export const NotificationOutcome = t.union([NotificationDelivered, NotificationFailed]);

/**
 * Its own durable queue `<prefix>.requests.notification-outcomes` on the events exchange,
 * with the platform's retries and parking. A message is acked only after the use case's
 * transaction committed; the inbox makes a redelivery a no-op.
 */
export const notificationOutcomesConsumer = (options: {
  readonly prefix: string;
  readonly logger: Logger;
  readonly record: (event: t.TypeOf<typeof NotificationOutcome>) => TE.TaskEither<never, OutcomeResult>;
  readonly retryDelaysMs?: readonly number[];
}): EventConsumer =>
  createEventConsumer({
    prefix: options.prefix,
    name: NOTIFICATION_OUTCOMES_CONSUMER,
    routingKeys: ['notification.delivered', 'notification.failed'],
    codec: NotificationOutcome,
    logger: options.logger,
    ...(options.retryDelaysMs === undefined ? {} : { retryDelaysMs: options.retryDelaysMs }),
    handle: async (event) => {
      const result = await options.record(event)();
      if (E.isRight(result) && result.right === 'unknown-request') {
        options.logger.info(
          { event_id: event.id, request_id: event.data.request_id },
          'notification outcome for an unknown Request or signer; dropped',
        );
      }
    },
  });
