import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { Accepted, SendFailure } from '../../domain/delivery.js';
import { composeEndpointDisabled } from '../../domain/webhook-alert.js';
import type { EmailSender } from '../../ports/email-sender.js';
import type { Clock } from '../../ports/runtime.js';
import type { ClaimedAlert, WebhookDeliveryStore } from '../../ports/webhook-delivery-store.js';

/** Alert e-mails are tried this often before they are given up (about a day with the back-off below). */
export const MAX_ALERT_ATTEMPTS = 30;

const alertRetryDelayMs = (attempt: number): number => Math.min(3_600_000, 60_000 * 2 ** (attempt - 1));

/** What became of one alert: whether it went out. */
type AlertOutcome = 'sent' | 'failed';

const sendAlert = (deps: SendWebhookAlertsDeps, alert: ClaimedAlert): TE.TaskEither<never, AlertOutcome> => {
  const send = deps.email.send({
    to: alert.to,
    idempotencyKey: `webhook-alert/${alert.id}`,
    ...composeEndpointDisabled(alert.alert),
  });
  return pipe(
    // A send that rejects (an adapter bug) is retried like a transient failure.
    () =>
      send().catch((error: unknown): E.Either<SendFailure, Accepted> =>
        E.left({ _tag: 'Transient', error: error instanceof Error ? error.message : String(error) }),
      ),
    TE.matchE(
      (failure) => {
        const retry = failure._tag === 'Transient' && alert.attempt < MAX_ALERT_ATTEMPTS;
        return pipe(
          deps.deliveries.alertFailed(
            alert,
            failure.error,
            retry ? new Date(deps.clock.now().getTime() + alertRetryDelayMs(alert.attempt)) : null,
          ),
          TE.map((): AlertOutcome => 'failed'),
        );
      },
      (accepted) =>
        pipe(
          deps.deliveries.alertSent(alert, accepted.providerMessageId),
          TE.map((): AlertOutcome => 'sent'),
        ),
    ),
  );
};

export interface SendWebhookAlertsDeps {
  readonly deliveries: WebhookDeliveryStore;
  readonly email: EmailSender;
  readonly clock: Clock;
  readonly leaseMs: number;
}

/**
 * Sends the "endpoint disabled" e-mails recorded when endpoints were turned off, through
 * the notifier's e-mail channel (SMTP or the local outbox), one after the other. A
 * transient failure is retried with back-off; a refused address is given up at once.
 */
export const sendWebhookAlerts = (
  deps: SendWebhookAlertsDeps,
): TE.TaskEither<never, { readonly sent: number; readonly failed: number }> =>
  pipe(
    deps.deliveries.claimAlerts(10, deps.leaseMs),
    TE.chain(TE.traverseSeqArray((alert) => sendAlert(deps, alert))),
    TE.map((outcomes) => ({
      sent: outcomes.filter((o) => o === 'sent').length,
      failed: outcomes.filter((o) => o === 'failed').length,
    })),
  );
