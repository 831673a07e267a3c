/**
 * How long the outbox relay sleeps after a round that left nothing due for it (ADR 2890).
 *
 * A row due at once wakes every listening relay by NOTIFY at its commit, and an event the
 * broker refused is given back by a relay that wakes itself. So a relay that is listening
 * needs to look only for rows that fall due later without a notification: a hand-off
 * whose writer died (due `HANDOFF_GRACE_MS` after its commit). Each round reads when the
 * next pending row falls due, and the relay sleeps until then, or for the long interval if
 * that is sooner. A row written after the
 * round falls due no sooner than a grace later, so the long interval must not exceed the
 * grace for such a row to be taken on time.
 *
 * While its LISTEN connection is down, or while rows that are due are locked by another
 * relay (whose death would notify nobody), it looks every `pollIntervalMs`, as before.
 */

export interface RelaySchedule {
  /** The longest sleep while the relay cannot count on NOTIFY. */
  readonly pollIntervalMs: number;
  /** The longest sleep while it can: at most `HANDOFF_GRACE_MS`. */
  readonly listeningPollIntervalMs: number;
}

/** What a round saw of the rows still pending once it had published its own. */
export interface PendingAfterRound {
  /** When the next pending row falls due, in ms on the database's clock; null when none is pending. */
  readonly dueInMs: number | null;
  /** Whether rows already due are pending: another relay's drain holds them. */
  readonly othersDue: boolean;
}

export const relaySleepMs = (
  pending: PendingAfterRound,
  listening: boolean,
  schedule: RelaySchedule,
): number => {
  if (pending.othersDue || !listening) return Math.min(schedule.pollIntervalMs, untilDue(pending));
  return Math.min(Math.max(schedule.pollIntervalMs, schedule.listeningPollIntervalMs), untilDue(pending));
};

const untilDue = (pending: PendingAfterRound): number =>
  pending.dueInMs === null ? Number.POSITIVE_INFINITY : Math.max(1, Math.ceil(pending.dueInMs));
