import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { undeliveredEvent, type DeliveryKey } from '../domain/delivery.js';
import type { DeliveryReports } from '../ports/delivery-reports.js';
import type { Clock, IdGenerator } from '../ports/runtime.js';

/** What a provider reported later about a message it accepted, in its words (ADR 3880). */
export interface ProviderReport {
  readonly providerMessageId: string;
  readonly channel: DeliveryKey['channel'];
  /** Undefined: the message is on its way or arrived, which changes nothing here. */
  readonly failure?: {
    readonly error: string;
    /** The reason is about this recipient (a handset unreachable, a number unknown), not our account. */
    readonly permanent: boolean;
  };
}

export type ReportResult =
  /** The message is failed now, and `notification.failed` says so. */
  | 'recorded'
  /** Not a failure: nothing to tell. */
  | 'not-a-failure'
  /** No message accepted with that id: unknown, told already, or older than reports. */
  | 'unknown';

/**
 * Tells a message its provider accepted and later could not deliver as failed, as a
 * refusal at sending would have been (ADR 3880): `notification.failed`, which the requests
 * service makes the signer's status, their Request's history and `request.delivery_failed`.
 * A report on a message that arrived or is on its way changes nothing: the message was
 * reported delivered when the provider accepted it.
 */
export const recordDeliveryReport =
  (deps: { readonly reports: DeliveryReports; readonly clock: Clock; readonly ids: IdGenerator }) =>
  (report: ProviderReport): TE.TaskEither<never, ReportResult> => {
    const { failure } = report;
    if (failure === undefined) return TE.right('not-a-failure');
    return pipe(
      deps.reports.undelivered(report.providerMessageId, report.channel, failure.error, (message) =>
        undeliveredEvent(message, failure, deps.ids.eventId(), deps.clock.now()),
      ),
      TE.map((message): ReportResult => (O.isSome(message) ? 'recorded' : 'unknown')),
    );
  };
