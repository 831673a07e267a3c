import type { Logger } from '@esign/platform';

export interface Periodic {
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `everyMs`, never two at once; a failure is logged and the next run
 * tries again. The timer does not keep the process alive.
 */
export const every = (name: string, everyMs: number, logger: Logger, run: () => Promise<void>): Periodic => {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = run()
      .catch((error: unknown) => logger.warn({ err: error, task: name }, 'periodic task failed'))
      .finally(() => {
        if (!stopped) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(tick, everyMs);
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
};
