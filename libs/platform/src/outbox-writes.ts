/**
 * The writing side of the transactional outbox (the relay is in outbox.ts): the events a
 * service writes in the transaction that changes its state, as their own statement
 * (`enqueueEvents`) or as part of a larger one (`insertEvents`), and the hand-off a
 * writer gives them to after its commit (ADR 2660).
 */
import { sql, type Queryable } from './db.js';

/** The envelope fields the outbox needs; the whole envelope is what is published. */
export interface OutgoingEvent {
  readonly id: string;
  readonly type: string;
}

/**
 * How long a handed-off row is left to the process that wrote it before the relay's drain
 * takes it: far beyond a publish and its confirm (5 s at most), so the two rarely both
 * publish one event (consumers dedupe by id when they do).
 */
export const HANDOFF_GRACE_MS = 10_000;

/**
 * The statement that writes `events` to the outbox, for a caller that makes it part of a
 * larger statement (a data-modifying CTE): it writes them only where `when` holds, so one
 * statement can change state and report it, atomic without a transaction block. With
 * `handedOff` the caller publishes them itself after its commit (`publishCommitted`).
 */
export const insertEvents = (
  events: readonly OutgoingEvent[],
  {
    when = sql.fragment`TRUE`,
    handedOff = false,
  }: { readonly when?: ReturnType<typeof sql.fragment>; readonly handedOff?: boolean } = {},
) => sql.fragment`
    INSERT INTO outbox (id, type, envelope, next_attempt_at)
    SELECT (e->>'id')::uuid, e->>'type', e,
           ${handedOff ? sql.fragment`now() + ${HANDOFF_GRACE_MS} * interval '1 millisecond'` : sql.fragment`now()`}
    FROM jsonb_array_elements(${sql.jsonb(events as unknown as Parameters<typeof sql.jsonb>[0])}) AS e
    WHERE ${when}`;

/** Writes events in the caller's transaction: one statement whatever their number. */
export const enqueueEvents = async (
  tx: Queryable,
  events: readonly OutgoingEvent[],
  handedOff = false,
): Promise<void> => {
  if (events.length === 0) return;
  await tx.query(sql.unsafe`${insertEvents(events, { handedOff })}`);
};

/** What a writer of handed-off rows gives their events to once its commit is done (ADR 2660). */
export interface OutboxHandoff {
  /**
   * Publishes events whose rows were written `handedOff` and have committed, and stamps
   * the rows published. Returns at once; a failure leaves the rows to the relay.
   */
  readonly publishCommitted: (events: readonly OutgoingEvent[]) => void;
}
