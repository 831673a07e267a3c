import { db, insertEvents, prepared, type OutgoingEvent, type Queryable } from '@esign/platform/database';
import { claimEvent } from '@esign/platform/messaging';
import type { Inbox } from '../../ports/inbox.js';
import type { Outbox } from '../../ports/outbox.js';
import { historyInsert } from './request-history.js';
import { oneStatement } from './request-writes.js';
import { task } from './task.js';

/**
 * The shared transactional outbox (libs/platform), in the caller's transaction; with
 * `handedOff`, written for hand-off and collected there (ADR 2660). The Request events
 * among them also go to their Request's history (ADR 3170), in the same statement.
 */
export const postgresOutbox = (q: Queryable, handedOff?: OutgoingEvent[]): Outbox => ({
  append: (events) =>
    task(async () => {
      if (events.length === 0) return;
      const history = historyInsert(events);
      const outbox = insertEvents(events, { handedOff: handedOff !== undefined });
      await db.exec(q, prepared(oneStatement(history === undefined ? [outbox] : [history, outbox])));
      handedOff?.push(...events);
    }),
});

/** The shared inbox (libs/platform), in the caller's transaction. */
export const postgresInbox = (q: Queryable): Inbox => ({
  claim: (consumer, eventId) => task(() => claimEvent(q, consumer, eventId)),
});
