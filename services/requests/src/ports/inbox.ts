import type * as TE from 'fp-ts/lib/TaskEither.js';

/** Events this service has consumed, so a redelivered one is applied once. */
export interface Inbox {
  /** Records `eventId` for `consumer` in the current transaction; false when it already was. */
  readonly claim: (consumer: string, eventId: string) => TE.TaskEither<never, boolean>;
}
