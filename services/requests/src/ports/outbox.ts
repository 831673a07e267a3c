import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainEvent } from '@esign/contracts';

/** Events leave only through here, written in the transaction of the change they describe. */
export interface Outbox {
  readonly append: (events: readonly DomainEvent[]) => TE.TaskEither<never, void>;
}
