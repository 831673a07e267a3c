import * as E from 'fp-ts/lib/Either.js';
import type { PasswordResetRequested } from '@esign/contracts';
import { composePasswordReset } from '../domain/password-reset-email.js';
import type { EmailSender } from '../ports/email-sender.js';
import type { EventClaims } from '../ports/event-claims.js';
import type { Clock } from '../ports/runtime.js';

export type PasswordResetOutcome = 'sent' | 'already_sent' | 'expired' | 'refused';

/** A transient failure of the mail provider: the consumer tries again later. */
export class PasswordResetNotSent extends Error {}

/**
 * E-mails a link to choose a new password (ADR 3000) once. A link that expired while the
 * event waited (a broker outage) is not sent: it would not work. An address the provider
 * refuses for good is given up. A crash after the provider took the e-mail and before the
 * claim is recorded sends it again when the event is redelivered: the same link, twice.
 */
export const sendPasswordReset =
  (deps: { readonly email: EmailSender; readonly claims: EventClaims; readonly clock: Clock }) =>
  async (event: PasswordResetRequested): Promise<PasswordResetOutcome> => {
    const handled = await deps.claims.handled(event.id)();
    if (E.isRight(handled) && handled.right) return 'already_sent';
    if (Date.parse(event.data.expires_at) <= deps.clock.now().getTime()) {
      await deps.claims.record(event.id)();
      return 'expired';
    }
    const sent = await deps.email.send({
      to: event.data.email,
      idempotencyKey: `password-reset/${event.id}`,
      ...composePasswordReset({ resetUrl: event.data.reset_url, expiresAt: event.data.expires_at }),
    })();
    if (E.isLeft(sent) && sent.left._tag === 'Transient') throw new PasswordResetNotSent(sent.left.error);
    await deps.claims.record(event.id)();
    return E.isLeft(sent) ? 'refused' : 'sent';
  };
