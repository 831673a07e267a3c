import * as TE from 'fp-ts/lib/TaskEither.js';
import { sendAccountEmail } from '../../src/application/send-account-email.js';
import type { SendFailure } from '../../src/domain/delivery.js';
import type { EmailMessage } from '../../src/ports/email-sender.js';

/**
 * `sendAccountEmail` over a provider that answers `answers` in turn ('ok' once they run out),
 * claims kept in memory and a clock standing at `now`, naming `operatorContact` if given:
 * what it sent, and what it claimed.
 */
export const accountEmailWorld = (
  answers: Array<SendFailure | 'ok'>,
  now: Date,
  operatorContact?: string,
) => {
  const sent: EmailMessage[] = [];
  const claimed = new Set<string>();
  const send = sendAccountEmail({
    email: {
      send: (message) => {
        sent.push(message);
        const answer = answers.shift() ?? 'ok';
        return answer === 'ok' ? TE.right({ providerMessageId: 'm1' }) : TE.left(answer);
      },
    },
    claims: {
      handled: (id) => TE.right(claimed.has(id)),
      record: (id) => TE.right(void claimed.add(id)),
    },
    clock: { now: () => now },
    operatorContact,
  });
  return { send, sent, claimed };
};
