import { isoNow, type DomainEvent, type TemplateEventType } from '@esign/contracts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { TemplateSpec } from '../domain/contract-template.js';
import type { Store } from '../ports/store.js';
import type { Deps } from './deps.js';

/**
 * A template event (ADR 3350) of `template` as it is after the change (as it was, for a
 * deletion), written to the outbox in the change's transaction, so a client is told of
 * exactly the changes that were stored. Answers `template`.
 */
export const toldOf = <T extends TemplateSpec>(
  deps: Pick<Deps, 'ids' | 'clock'>,
  store: Store,
  type: TemplateEventType,
  template: T,
): TE.TaskEither<never, T> => {
  const event: DomainEvent = {
    id: deps.ids.eventId(),
    type,
    occurred_at: isoNow(deps.clock),
    site_id: template.siteId,
    aggregate_id: String(template.id),
    data: {
      contract_id: template.id,
      name: template.name,
      type: template.kind,
      state: template.state,
      archived_at: template.archivedAt,
    },
  };
  return pipe(
    store.outbox.append([event]),
    TE.map(() => template),
  );
};
