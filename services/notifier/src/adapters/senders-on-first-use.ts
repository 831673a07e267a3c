import * as T from 'fp-ts/lib/Task.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { onFirstUse } from '@esign/platform';
import type { SendFailure } from '../domain/delivery.js';
import type { AttemptResult } from '../domain/webhook-delivery.js';
import type { SmsSender } from '../ports/sms-sender.js';
import type { WebhookSender } from '../ports/webhook-sender.js';

// The Twilio SDK and undici hold about 7 and 6 MB of heap once imported, for good; a
// notifier that sends no SMS, or delivers no webhook, never needs them (ADR 2740). `load`
// imports the adapter with a literal `import()`, so the image's file tracer follows it.

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The SMS sender `load` makes, made on the first message. A failed load fails that message
 * as transient (it is retried with back-off like an outage), and the next one loads again.
 */
export const smsSenderOnFirstUse = (load: () => Promise<SmsSender>): SmsSender => {
  const sender = onFirstUse(load);
  return {
    send: (message) =>
      pipe(
        TE.tryCatch(sender, (error): SendFailure => ({
          _tag: 'Transient',
          error: `the SMS sender did not load: ${reason(error)}`,
        })),
        TE.chain((loaded) => loaded.send(message)),
      ),
  };
};

/**
 * The webhook sender `load` makes, made on the first delivery. A failed load is an attempt
 * without an answer (retried with back-off), and the next delivery loads again.
 */
export const webhookSenderOnFirstUse = (load: () => Promise<WebhookSender>): WebhookSender => {
  const sender = onFirstUse(load);
  const notLoaded = (error: unknown): AttemptResult => ({
    _tag: 'NoResponse',
    error: `the HTTP client did not load: ${reason(error)}`,
    durationMs: 0,
  });
  return {
    send: (request) =>
      pipe(
        TE.tryCatch(sender, notLoaded),
        TE.chainW((loaded) => loaded.send(request)),
        TE.getOrElse((result) => T.of(result)),
        TE.rightTask,
      ),
  };
};
