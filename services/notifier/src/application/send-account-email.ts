import * as E from 'fp-ts/lib/Either.js';
import {
  ACCESS_CHANGED,
  API_ACCESS_CHANGED,
  APP_CHANGED,
  INVITATION_ACCEPTED,
  PASSWORD_CHANGED,
  PASSWORD_RESET_REQUESTED,
  SIGNING_KEYS_WITHDRAWN,
  TOKEN_REVOKED,
  USER_INVITED,
  type AccountEvent,
} from '@esign/contracts';
import {
  composeAccessChanged,
  composeApiAccessChanged,
  composeAppChanged,
  composeSigningKeysWithdrawn,
  composeTokenRevoked,
} from '../domain/access-emails.js';
import {
  composeInvitation,
  composeInvitationAccepted,
  composePasswordChanged,
  composePasswordReset,
} from '../domain/account-emails.js';
import type { EmailContent } from '../domain/message-content.js';
import type { EmailSender } from '../ports/email-sender.js';
import type { EventClaims } from '../ports/event-claims.js';
import type { Clock } from '../ports/runtime.js';

export type AccountEmailOutcome = 'sent' | 'already_sent' | 'expired' | 'refused';

/** A transient failure of the mail provider: the consumer tries again later. */
export class AccountEmailNotSent extends Error {}

/** `operatorContact`: how the operators are reached, named where an e-mail says to ask them. */
const contentOf = (event: AccountEvent, operatorContact: string | undefined): EmailContent => {
  const operator = { operatorContact };
  switch (event.type) {
    case PASSWORD_RESET_REQUESTED:
      return composePasswordReset({
        resetUrl: event.data.reset_url,
        expiresAt: event.data.expires_at,
        email: event.data.email,
        byOperator: event.data.by_operator ?? false,
        ...(event.data.welcome !== undefined && {
          welcome: { accountName: event.data.welcome.account_name },
        }),
      });
    case PASSWORD_CHANGED:
      return composePasswordChanged({ email: event.data.email, by: event.data.by, at: event.occurred_at });
    case USER_INVITED:
      return composeInvitation({
        accountName: event.data.account_name,
        invitedBy: event.data.invited_by,
        email: event.data.email,
        acceptUrl: event.data.accept_url,
        expiresAt: event.data.expires_at,
        admin: event.data.admin ?? false,
      });
    case INVITATION_ACCEPTED:
      return composeInvitationAccepted({
        accountName: event.data.account_name,
        joined: event.data.joined,
        admin: event.data.admin ?? false,
        at: event.occurred_at,
      });
    case ACCESS_CHANGED:
      return composeAccessChanged({
        email: event.data.email,
        accountName: event.data.account_name,
        change: event.data.change,
        user: event.data.user,
        by: event.data.by,
        byOperator: event.data.by_operator ?? false,
        at: event.occurred_at,
        ...operator,
      });
    case API_ACCESS_CHANGED:
      return composeApiAccessChanged({
        accountName: event.data.account_name,
        enabled: event.data.enabled,
        at: event.occurred_at,
        ...operator,
      });
    case APP_CHANGED:
      return composeAppChanged({
        appName: event.data.app_name,
        change: event.data.change,
        at: event.occurred_at,
        ...operator,
      });
    case TOKEN_REVOKED:
      return composeTokenRevoked({
        appName: event.data.app_name,
        tokenName: event.data.token_name,
        origin: event.data.origin,
        at: event.occurred_at,
        ...operator,
      });
    case SIGNING_KEYS_WITHDRAWN:
      return composeSigningKeysWithdrawn({ tokens: event.data.tokens, at: event.occurred_at, ...operator });
  }
};

/** When the event's link stops working, for the e-mails that carry one. */
const linkExpiresAt = (event: AccountEvent): string | undefined =>
  event.type === PASSWORD_RESET_REQUESTED || event.type === USER_INVITED ? event.data.expires_at : undefined;

/**
 * E-mails one of auth's events to its recipient once: a link to choose a new password
 * (ADR 3000), the notice that the password changed (ADR 3020), an invitation to join an
 * account or the inviter's notice that it was accepted (ADR 3030), what an admin changed
 * about a user's role or access (ADRs 3040, 3060, 3120), who joined as an admin (ADR 3090),
 * an account's API access turned off or on, a Developer App suspended, restored or
 * deleted and a token revoked by an operator (ADR 3120), and the signing keys withdrawn
 * with the tokens they signed (ADR 0301).
 * A link that expired while the event waited (a broker outage) is not sent: it would not
 * work. An address the provider
 * refuses for good is given up. A crash after the provider took the e-mail and before the
 * claim is recorded sends it again when the event is redelivered.
 */
export const sendAccountEmail =
  (deps: {
    readonly email: EmailSender;
    readonly claims: EventClaims;
    readonly clock: Clock;
    /** `OPERATOR_CONTACT`: named where an operator's change says to ask the operators. */
    readonly operatorContact?: string | undefined;
  }) =>
  async (event: AccountEvent): Promise<AccountEmailOutcome> => {
    const handled = await deps.claims.handled(event.id)();
    if (E.isRight(handled) && handled.right) return 'already_sent';
    const expiresAt = linkExpiresAt(event);
    if (expiresAt !== undefined && Date.parse(expiresAt) <= deps.clock.now().getTime()) {
      await deps.claims.record(event.id)();
      return 'expired';
    }
    const sent = await deps.email.send({
      to: event.data.email,
      idempotencyKey: `${event.type}/${event.id}`,
      ...contentOf(event, deps.operatorContact),
    })();
    if (E.isLeft(sent) && sent.left._tag === 'Transient') throw new AccountEmailNotSent(sent.left.error);
    await deps.claims.record(event.id)();
    return E.isLeft(sent) ? 'refused' : 'sent';
  };
