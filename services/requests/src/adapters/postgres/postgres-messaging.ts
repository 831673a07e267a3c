import { claimEvent, enqueueEvents, type Queryable } from '@esign/platform';
import type { Inbox } from '../../ports/inbox.js';
import type { Outbox } from '../../ports/outbox.js';
import { task } from './task.js';

/** The shared transactional outbox (libs/platform), in the caller's transaction. */
export const postgresOutbox = (q: Queryable): Outbox => ({
  append: (events) => task(() => enqueueEvents(q, events)),
});

/** The shared inbox (libs/platform), in the caller's transaction. */
export const postgresInbox = (q: Queryable): Inbox => ({
  claim: (consumer, eventId) => task(() => claimEvent(q, consumer, eventId)),
});
