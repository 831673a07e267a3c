import { Counter, type Registry } from 'prom-client';
import type { NotifierMetrics } from '../../ports/notifier-metrics.js';

const OUTCOME = {
  Delivered: 'delivered',
  Failed: 'failed',
  WillRetry: 'retry',
  AlreadySettled: 'skipped_settled',
  Busy: 'skipped_busy',
} as const;

/** `notifier_messages_total{channel, outcome}` on the service's /metrics. */
export const notifierMetrics = (registry: Registry): NotifierMetrics => {
  const messages = new Counter({
    name: 'notifier_messages_total',
    help: 'Messages to signers by channel and outcome of the pass (delivered, failed, retry, skipped_settled, skipped_busy).',
    labelNames: ['channel', 'outcome'] as const,
    registers: [registry],
  });
  return {
    record: (report) => {
      for (const message of report.messages)
        messages.inc({ channel: message.key.channel, outcome: OUTCOME[message.outcome._tag] });
    },
  };
};
