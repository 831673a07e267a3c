import type * as TE from 'fp-ts/lib/TaskEither.js';

/**
 * Which events a consumer has handled (the messaging inbox), for handlers whose effect is
 * outside the database: checked before, recorded after, so a redelivery does nothing.
 */
export interface EventClaims {
  readonly handled: (eventId: string) => TE.TaskEither<never, boolean>;
  readonly record: (eventId: string) => TE.TaskEither<never, void>;
}
