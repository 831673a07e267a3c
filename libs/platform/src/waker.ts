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
