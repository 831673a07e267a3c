import { Counter, type Registry } from 'prom-client';
import type { DispatchReport } from '../../application/webhooks/deliver-due-webhooks.js';

export interface WebhookMetrics {
  readonly record: (report: DispatchReport) => void;
}

/**
 * `notifier_webhook_attempts_total{outcome}` (delivered, retry, failed, superseded,
 * cancelled) and `notifier_webhook_endpoints_disabled_total` on the service's /metrics.
 */
export const webhookMetrics = (registry: Registry): WebhookMetrics => {
  const attempts = new Counter({
    name: 'notifier_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome (delivered, retry, failed, superseded, cancelled).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const disabled = new Counter({
    name: 'notifier_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints turned off after failing for too long.',
    registers: [registry],
  });
  return {
    record: (report) => {
      for (const { outcome } of report.deliveries) {
        if (outcome._tag === 'Attempted') {
          attempts.inc({
            outcome:
              outcome.step._tag === 'Delivered'
                ? 'delivered'
                : outcome.step._tag === 'Retry'
                  ? 'retry'
                  : 'failed',
          });
          if (outcome.disabled) disabled.inc();
        } else attempts.inc({ outcome: outcome._tag === 'Superseded' ? 'superseded' : 'cancelled' });
      }
    },
  };
};
