import type { Logger } from '@esign/platform';

export interface Periodic {
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

export interface Recurring extends Periodic {
  /**
   * Runs now instead of at the scheduled time; during a run, runs again as soon as it
   * ends (what woke it may have come too late for the run under way).
   */
  wake(): void;
}

/**
 * Runs `run`, never two at once, and again after as many milliseconds as it answers; a
 * failure is logged and the next run comes `retryMs` later. The timer does not keep the
 * process alive.
 */
export const recurring = (
  name: string,
  logger: Logger,
  delays: { readonly firstMs: number; readonly retryMs: number },
  run: () => Promise<number>,
): Recurring => {
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let woken = false;
  const schedule = (ms: number) => {
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    timer = undefined;
    woken = false;
    running = run()
      .catch((error: unknown) => {
        logger.warn({ err: error, task: name }, 'periodic task failed');
        return delays.retryMs;
      })
      .then((nextMs) => {
        running = undefined;
        if (!stopped) schedule(woken ? 0 : nextMs);
      });
  };
  schedule(delays.firstMs);
  return {
    wake: () => {
      if (stopped) return;
      if (running !== undefined) woken = true;
      else if (timer !== undefined) {
        clearTimeout(timer);
        schedule(0);
      }
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
};

/** Runs `run` every `everyMs`, never two at once (see `recurring`). */
export const every = (name: string, everyMs: number, logger: Logger, run: () => Promise<void>): Periodic =>
  recurring(name, logger, { firstMs: everyMs, retryMs: everyMs }, async () => {
    await run();
    return everyMs;
  });
