import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Accepted, SendFailure } from '../domain/delivery.js';

export interface SmsMessage {
  /** E.164, a US number: `+1` and 10 digits. */
  readonly to: string;
  readonly body: string;
  readonly idempotencyKey: string;
}

/**
 * Hands one SMS to an SMS provider; `Accepted` means the provider queued it. Every
 * failure the provider reports, or not reaching it, is a `SendFailure`.
 */
export interface SmsSender {
  readonly send: (message: SmsMessage) => TE.TaskEither<SendFailure, Accepted>;
}
