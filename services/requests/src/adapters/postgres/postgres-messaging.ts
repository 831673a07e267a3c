import { enqueueEvents, type OutgoingEvent, type Queryable } from '@esign/platform/database';
import { claimEvent } from '@esign/platform/messaging';
import type { Inbox } from '../../ports/inbox.js';
import type { Outbox } from '../../ports/outbox.js';
import { task } from './task.js';

/**
 * The shared transactional outbox (libs/platform), in the caller's transaction; with
 * `handedOff`, written for hand-off and collected there (ADR 2660).
 */
export const postgresOutbox = (q: Queryable, handedOff?: OutgoingEvent[]): Outbox => ({
  append: (events) =>
    task(async () => {
      await enqueueEvents(q, events, handedOff !== undefined);
      handedOff?.push(...events);
    }),
});

/** The shared inbox (libs/platform), in the caller's transaction. */
export const postgresInbox = (q: Queryable): Inbox => ({
  claim: (consumer, eventId) => task(() => claimEvent(q, consumer, eventId)),
});
