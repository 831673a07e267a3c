import { createWaker, sleepUntilDueMs, type Logger } from '@esign/platform';

export interface DispatcherRound {
  readonly name: string;
  /** Does one round of work; answers true when there may be more due right now. */
  readonly run: () => Promise<boolean>;
}

export interface WebhookDispatcher {
  /** Runs a round now instead of at the next poll (a new delivery was just written). */
  wake(): void;
  /** Stops polling and waits for the round in progress. */
  stop(): Promise<void>;
}

/**
 * The loop that drives deliveries and alerts: runs each round, again at once while a
 * round reports more due, otherwise when woken (a delivery written by this process) or
 * when the next delivery or alert falls due, at most `idlePollIntervalMs` later (ADR
 * 2900). Several notifier replicas run it side by side: their claims (SKIP LOCKED) never
 * overlap. A failing round (Postgres down) is logged and retried with a growing pause.
 */
export const startWebhookDispatcher = (options: {
  readonly rounds: readonly DispatcherRound[];
  /** When the next delivery or alert falls due, in ms from now (null: none pending). */
  readonly nextDueInMs: () => Promise<number | null>;
  /** The sleep while due rows were left untaken, and the base of the back-off after a failure. */
  readonly pollIntervalMs: number;
  /** The longest sleep with nothing due: how soon a delivery no wake-up announced is found. */
  readonly idlePollIntervalMs: number;
  readonly logger: Logger;
}): WebhookDispatcher => {
  const log = options.logger.child({ component: 'webhook-dispatcher' });
  let stopped = false;
  const waker = createWaker();
  let failures = 0;

  const idleSleepMs = async (): Promise<number> => {
    try {
      return sleepUntilDueMs(await options.nextDueInMs(), options);
    } catch (error) {
      log.warn(
        { round: 'next due', err: error instanceof Error ? error.message : String(error) },
        'round failed',
      );
      return options.pollIntervalMs;
    }
  };

  const loop = async () => {
    while (!stopped) {
      waker.settle();
      let more = false;
      let failed = false;
      for (const round of options.rounds) {
        if (stopped) break;
        try {
          more = (await round.run()) || more;
        } catch (error) {
          failed = true;
          log.warn(
            { round: round.name, err: error instanceof Error ? error.message : String(error) },
            'round failed',
          );
        }
      }
      failures = failed ? failures + 1 : 0;
      if (stopped) break;
      if (failed) await waker.sleep(Math.min(30_000, options.pollIntervalMs * 2 ** Math.min(failures, 5)));
      // Woken meanwhile (a new delivery): round again, without reading when the next is due.
      else if (!more && !waker.woken()) await waker.sleep(await idleSleepMs());
    }
  };
  const running = loop();

  return {
    wake: waker.wake,
    stop: async () => {
      stopped = true;
      waker.wake();
      await running;
    },
  };
};
