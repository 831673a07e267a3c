import * as TE from 'fp-ts/lib/TaskEither.js';
import { claimEvent } from '@esign/platform/messaging';
import { sql, type DatabasePool } from '@esign/platform/database';
import type { EventClaims } from '../../ports/event-claims.js';

/** The messaging inbox of one consumer, as `EventClaims`. An outage rejects: the consumer retries. */
export const postgresEventClaims = (pool: DatabasePool, consumer: string): EventClaims => ({
  handled: (eventId) =>
    TE.fromTask(
      async () =>
        (
          await pool.query(
            sql.unsafe`SELECT 1 FROM inbox WHERE consumer = ${consumer} AND event_id = ${eventId}`,
          )
        ).rowCount > 0,
    ),
  record: (eventId) =>
    TE.fromTask(async () => {
      await claimEvent(pool, consumer, eventId);
    }),
});
