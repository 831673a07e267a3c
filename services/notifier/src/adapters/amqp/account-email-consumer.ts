import {
  ACCESS_CHANGED,
  API_ACCESS_CHANGED,
  APP_CHANGED,
  AccountEvent,
  INVITATION_ACCEPTED,
  PASSWORD_CHANGED,
  PASSWORD_RESET_REQUESTED,
  SIGNING_KEYS_WITHDRAWN,
  TOKEN_REVOKED,
  USER_INVITED,
} from '@esign/contracts';
import type { Logger } from '@esign/platform';
import { createEventConsumer, type EventConsumer } from '@esign/platform/messaging';
import type { AccountEmailOutcome } from '../../application/send-account-email.js';

export const ACCOUNT_EMAILS_CONSUMER = 'notifier.account-emails';

/**
 * Auth's e-mails to users, on their own queue `<prefix>.notifier.account-emails`: links
 * to choose a new password (ADR 3000), notices that a password changed (ADR 3020), and
 * invitations to join an account with the inviters' notices that they were accepted (ADR
 * 3030), the changes admins and operators make to users' roles and access, told to the
 * user and to the account's admins (ADRs 3040, 3060, 3120), and an account's API access
 * turned off or on by an operator, told to its users, and a Developer App an operator
 * suspended, restored or deleted, told to its owner, or a token they revoked (ADR 3120);
 * and the signing keys withdrawn at once, told to everyone whose tokens stopped (ADR 0301).
 * A transient failure throws, and the platform consumer retries with back-off, then parks.
 */
export const accountEmailConsumer = (options: {
  readonly prefix: string;
  readonly logger: Logger;
  readonly retryDelaysMs: readonly number[];
  readonly send: (event: AccountEvent) => Promise<AccountEmailOutcome>;
}): EventConsumer => {
  const log = options.logger.child({ component: 'account-email-consumer' });
  return createEventConsumer({
    prefix: options.prefix,
    name: ACCOUNT_EMAILS_CONSUMER,
    routingKeys: [
      PASSWORD_RESET_REQUESTED,
      PASSWORD_CHANGED,
      USER_INVITED,
      INVITATION_ACCEPTED,
      ACCESS_CHANGED,
      API_ACCESS_CHANGED,
      APP_CHANGED,
      TOKEN_REVOKED,
      SIGNING_KEYS_WITHDRAWN,
    ],
    codec: AccountEvent,
    logger: options.logger,
    retryDelaysMs: options.retryDelaysMs,
    handle: async (event) => {
      const outcome = await options.send(event);
      // Addresses stay out of the log: the event's and the user's (or invitation's) ids say whose it was.
      log.info(
        { event_id: event.id, type: event.type, aggregate_id: event.aggregate_id, outcome },
        'account e-mail',
      );
    },
  });
};
