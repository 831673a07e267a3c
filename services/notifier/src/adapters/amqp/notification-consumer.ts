import * as t from 'io-ts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import {
  NoticeCancelled,
  NoticeCompleted,
  NoticeDeclined,
  NoticeExpired,
  NoticeReplaced,
  NoticeReassigned,
  RequestReminded,
  RequestSent,
  RequestTurnStarted,
  SignerCodeRequested,
} from '@esign/contracts';
import type { Logger } from '@esign/platform';
import { createEventConsumer, type EventConsumer } from '@esign/platform/messaging';
import { keyText, type NoticeEvent } from '../../domain/delivery.js';
import { needsRetry, type Attempt, type NotifyReport } from '../../application/notify-signers.js';
import type { NotifierMetrics } from '../../ports/notifier-metrics.js';

/** Every message on the notifier's queue must be one of these, or it is parked. */
export const NoticeEventCodec = t.union([
  RequestSent,
  RequestReminded,
  RequestTurnStarted,
  SignerCodeRequested,
  NoticeCompleted,
  NoticeDeclined,
  NoticeCancelled,
  NoticeExpired,
  NoticeReplaced,
  NoticeReassigned,
]);

export const CONSUMER_NAME = 'notifier';

export interface NotificationConsumerOptions {
  readonly prefix: string;
  readonly logger: Logger;
  readonly retryDelaysMs: readonly number[];
  readonly prefetch: number;
  readonly notify: (event: NoticeEvent, attempt: Attempt) => TE.TaskEither<never, NotifyReport>;
  readonly metrics?: NotifierMetrics;
}

/**
 * `request.sent`, `request.reminded` and `request.turn_started` (the next signers of a
 * Request signed in order) and `signer.code_requested` (a one-time code, ADR 2001) from
 * the notifier's own queue, `notice.completed` / `notice.declined` (ADR 2002),
 * `notice.cancelled` (ADR 3500), `notice.expired` (ADR 3520), `notice.replaced` (ADR 3550)
 * and `notice.reassigned` (ADR 3560). The message is acked once every message it asks for is settled (delivered or
 * failed for good) and recorded; while some wait for a retry, or when the store is
 * unreachable (the pass rejects), the handler throws, and the platform consumer sends it
 * through the back-off queues. The last pass records what still fails as failed, so
 * exhausted retries end in `notification.failed`, not in the parking queue.
 */
export const notificationConsumer = (options: NotificationConsumerOptions): EventConsumer => {
  const log = options.logger.child({ component: 'notification-consumer' });
  return createEventConsumer({
    prefix: options.prefix,
    name: CONSUMER_NAME,
    routingKeys: [
      'request.sent',
      'request.reminded',
      'request.turn_started',
      'signer.code_requested',
      'notice.completed',
      'notice.declined',
      'notice.cancelled',
      'notice.expired',
      'notice.replaced',
      'notice.reassigned',
    ],
    codec: NoticeEventCodec,
    logger: options.logger,
    prefetch: options.prefetch,
    retryDelaysMs: options.retryDelaysMs,
    handle: async (event, info) => {
      const final = info.attempt > options.retryDelaysMs.length;
      const report = await TE.toUnion(options.notify(event, { final }))();
      options.metrics?.record(report);
      const meta = {
        event_id: event.id,
        event_type: event.type,
        request_id: event.data.request_id,
        attempt: info.attempt,
      };
      for (const { key, outcome } of report.messages) {
        if (outcome._tag === 'Failed')
          log.warn({ ...meta, message: keyText(key), error: outcome.error }, 'message failed');
      }
      if (needsRetry(report)) {
        const waiting = report.messages.filter(
          (m) => m.outcome._tag === 'WillRetry' || m.outcome._tag === 'Busy',
        );
        throw new Error(
          `${waiting.length} of ${report.messages.length} messages to retry: ${waiting
            .map(
              (m) =>
                `${keyText(m.key)} (${m.outcome._tag === 'WillRetry' ? m.outcome.error : 'being sent by another worker'})`,
            )
            .join('; ')}`,
        );
      }
      log.info(
        {
          ...meta,
          messages: report.messages.length,
          delivered: report.messages.filter((m) => m.outcome._tag === 'Delivered').length,
          failed: report.messages.filter((m) => m.outcome._tag === 'Failed').length,
        },
        'signers notified',
      );
    },
  });
};
