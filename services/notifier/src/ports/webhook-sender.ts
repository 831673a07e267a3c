import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AttemptResult } from '../domain/webhook-delivery.js';

export interface WebhookRequest {
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * POSTs one delivery. Never fails: every outcome (an answer, no answer, a refused
 * destination) is an `AttemptResult` to record.
 */
export interface WebhookSender {
  readonly send: (request: WebhookRequest) => TE.TaskEither<never, AttemptResult>;
}
