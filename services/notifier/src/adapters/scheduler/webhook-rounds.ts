import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Logger } from '@esign/platform';
import type { DispatchReport } from '../../application/webhooks/deliver-due-webhooks.js';
import type { DispatcherRound } from './webhook-dispatcher.js';

/**
 * The dispatcher's three rounds over the webhook use cases: deliveries (recorded in the
 * metrics, a failed attempt logged), the alert e-mails, and pruning settled deliveries.
 */
export const webhookRounds = (options: {
  readonly deliver: TE.TaskEither<never, DispatchReport>;
  readonly alerts: TE.TaskEither<never, { readonly sent: number; readonly failed: number }>;
  readonly prune: TE.TaskEither<never, number>;
  readonly record: (report: DispatchReport) => void;
  readonly logger: Logger;
  /** Deliveries claimed per round: a full round means more may be due at once. */
  readonly concurrency: number;
}): readonly DispatcherRound[] => {
  const log = options.logger.child({ component: 'webhooks' });
  return [
    {
      name: 'deliveries',
      run: async () => {
        const report = await TE.toUnion(options.deliver)();
        options.record(report);
        for (const { delivery, outcome } of report.deliveries) {
          if (outcome._tag !== 'Attempted' || outcome.step._tag === 'Delivered') continue;
          const meta = {
            delivery_id: delivery.id,
            endpoint_id: delivery.endpoint.id,
            event_id: delivery.eventId,
            attempt: delivery.attempt,
            error: outcome.step.error,
          };
          if (outcome.step._tag === 'Retry')
            log.info({ ...meta, retry_at: outcome.step.at }, 'webhook attempt failed');
          else log.warn(meta, 'webhook delivery failed');
          if (outcome.disabled) log.warn({ endpoint_id: delivery.endpoint.id }, 'webhook endpoint disabled');
        }
        return report.deliveries.length >= options.concurrency;
      },
    },
    {
      name: 'alerts',
      run: async () => {
        const { sent, failed } = await TE.toUnion(options.alerts)();
        if (failed > 0) log.warn({ sent, failed }, 'webhook alert e-mails failed');
        return false;
      },
    },
    {
      name: 'prune',
      run: async () => {
        const pruned = await TE.toUnion(options.prune)();
        if (pruned > 0) log.info({ pruned }, 'pruned old webhook deliveries');
        return false;
      },
    },
  ];
};
