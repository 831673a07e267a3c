/**
 * The sleep of a background loop that others can cut short: a poller that also reacts
 * to a signal (NOTIFY, a new event) at once. A `wake()` that comes while the loop is
 * busy is remembered, so the next `sleep` returns immediately instead of missing it.
 */
export interface Waker {
  /** Ends the current sleep, or the next one if none is under way. */
  readonly wake: () => void;
  /** Forgets earlier wake-ups: call at the top of each round, before looking for work. */
  readonly settle: () => void;
  /** Whether a wake-up came since the last `settle`: the next `sleep` would return at once. */
  readonly woken: () => boolean;
  /** Resolves after `ms`, or as soon as `wake()` is called. */
  readonly sleep: (ms: number) => Promise<void>;
}

export const createWaker = (): Waker => {
  let pending = false;
  let cut: (() => void) | undefined;
  return {
    wake: () => {
      pending = true;
      cut?.();
    },
    settle: () => {
      pending = false;
    },
    woken: () => pending,
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        if (pending) return resolve();
        const timer = setTimeout(() => {
          cut = undefined;
          resolve();
        }, ms);
        cut = () => {
          clearTimeout(timer);
          cut = undefined;
          resolve();
        };
      }),
  };
};

/** How a worker that can read when its next row falls due spaces its rounds (ADR 2900). */
export interface DueSchedule {
  /** The sleep while rows already due were left untaken (another worker holds them), and after a failure. */
  readonly pollIntervalMs: number;
  /**
   * The longest sleep: how soon a row that nothing woke this worker for is found, such as
   * one another replica wrote and died before taking up.
   */
  readonly idlePollIntervalMs: number;
}

/**
 * How long a worker sleeps after a round that found nothing more to do, given when its
 * next row falls due (ms from now, on the database's clock; null when none is pending).
 * Rows its own process writes wake it, so it sleeps until the next row falls due (a retry,
 * a paced row, a lease that runs out), at most the idle interval; rows already due yet
 * left untaken are looked at again after the short interval.
 */
export const sleepUntilDueMs = (dueInMs: number | null, schedule: DueSchedule): number => {
  const longest = Math.max(schedule.pollIntervalMs, schedule.idlePollIntervalMs);
  if (dueInMs === null) return longest;
  if (dueInMs <= 0) return schedule.pollIntervalMs;
  return Math.min(Math.ceil(dueInMs), longest);
};
