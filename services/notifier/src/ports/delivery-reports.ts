import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AcceptedMessage, DeliveryKey, OutcomeEvent } from '../domain/delivery.js';

/**
 * A provider's later reports on messages it accepted (ADR 3880), kept with the deliveries.
 * An outage rejects: the provider's report is answered with an error, and it sends it again.
 */
export interface DeliveryReports {
  /**
   * Marks the message the provider accepted as `providerMessageId` on `channel` failed
   * after all, with `error`, and writes the event `report` makes of it in the same
   * transaction. Answers the message, or none when no accepted message has that id:
   * unknown, reported already, kept from before reports were, or not recorded yet.
   */
  readonly undelivered: (
    providerMessageId: string,
    channel: DeliveryKey['channel'],
    error: string,
    report: (message: AcceptedMessage) => OutcomeEvent,
  ) => TE.TaskEither<never, O.Option<AcceptedMessage>>;
}
