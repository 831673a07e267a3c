import { PASSWORD_RESET_REQUESTED, PasswordResetRequested } from '@esign/contracts';
import type { Logger } from '@esign/platform';
import { createEventConsumer, type EventConsumer } from '@esign/platform/messaging';
import type { PasswordResetOutcome } from '../../application/send-password-reset.js';

export const ACCOUNT_EMAILS_CONSUMER = 'notifier.account-emails';

/**
 * Auth's e-mails to users, on their own queue `<prefix>.notifier.account-emails`: the
 * links to choose a new password (ADR 3000). A transient failure throws, and the platform
 * consumer retries with back-off, then parks the message.
 */
export const accountEmailConsumer = (options: {
  readonly prefix: string;
  readonly logger: Logger;
  readonly retryDelaysMs: readonly number[];
  readonly sendPasswordReset: (event: PasswordResetRequested) => Promise<PasswordResetOutcome>;
}): EventConsumer => {
  const log = options.logger.child({ component: 'account-email-consumer' });
  return createEventConsumer({
    prefix: options.prefix,
    name: ACCOUNT_EMAILS_CONSUMER,
    routingKeys: [PASSWORD_RESET_REQUESTED],
    codec: PasswordResetRequested,
    logger: options.logger,
    retryDelaysMs: options.retryDelaysMs,
    handle: async (event) => {
      const outcome = await options.sendPasswordReset(event);
      // The address stays out of the log: the user's id says whose it was.
      log.info({ event_id: event.id, user_id: event.aggregate_id, outcome }, 'password reset e-mail');
    },
  });
};
