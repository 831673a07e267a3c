import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Accepted, SendFailure } from '../domain/delivery.js';

export interface EmailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** Where replies go (the Site's branding, ADR 2301); absent: the sender. */
  readonly replyTo?: string;
  /** Stable per (event, signer, channel): a repeat of the same message can say it is one. */
  readonly idempotencyKey: string;
}

/**
 * Hands one e-mail to a mail provider; `Accepted` means the provider took responsibility
 * for it. Every failure the provider reports, or not reaching it, is a `SendFailure`.
 */
export interface EmailSender {
  readonly send: (message: EmailMessage) => TE.TaskEither<SendFailure, Accepted>;
}
