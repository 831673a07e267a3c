import * as E from 'fp-ts/lib/Either.js';
import { composeEndpointDisabled } from '../../domain/webhook-alert.js';
import type { EmailSender } from '../../ports/email-sender.js';
import type { Clock } from '../../ports/runtime.js';
import type { WebhookDeliveryStore } from '../../ports/webhook-delivery-store.js';

/** Alert e-mails are tried this often before they are given up (about a day with the back-off below). */
export const MAX_ALERT_ATTEMPTS = 30;

const alertRetryDelayMs = (attempt: number): number => Math.min(3_600_000, 60_000 * 2 ** (attempt - 1));

/**
 * Sends the "endpoint disabled" e-mails recorded when endpoints were turned off, through
 * the notifier's e-mail channel (SMTP or the local outbox). A transient failure is
 * retried with back-off; a refused address is given up at once.
 */
export const sendWebhookAlerts =
  (deps: {
    readonly deliveries: WebhookDeliveryStore;
    readonly email: EmailSender;
    readonly clock: Clock;
    readonly leaseMs: number;
  }) =>
  async (): Promise<{ readonly sent: number; readonly failed: number }> => {
    const alerts = await deps.deliveries.claimAlerts(10, deps.leaseMs);
    let sent = 0;
    let failed = 0;
    for (const alert of alerts) {
      const content = composeEndpointDisabled(alert.alert);
      const result = await deps.email
        .send({ to: alert.to, idempotencyKey: `webhook-alert/${alert.id}`, ...content })()
        .catch((error: unknown) =>
          E.left({
            _tag: 'Transient' as const,
            error: error instanceof Error ? error.message : String(error),
          }),
        );
      if (E.isRight(result)) {
        await deps.deliveries.alertSent(alert, result.right.providerMessageId);
        sent++;
        continue;
      }
      failed++;
      const retry = result.left._tag === 'Transient' && alert.attempt < MAX_ALERT_ATTEMPTS;
      await deps.deliveries.alertFailed(
        alert,
        result.left.error,
        retry ? new Date(deps.clock.now().getTime() + alertRetryDelayMs(alert.attempt)) : null,
      );
    }
    return { sent, failed };
  };
