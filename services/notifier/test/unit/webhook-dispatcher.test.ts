import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually, testLogger } from '@esign/testing';
import {
  startWebhookDispatcher,
  type WebhookDispatcher,
} from '../../src/adapters/scheduler/webhook-dispatcher.js';

/**
 * The dispatcher's loop with a round that only counts, and a next-due reading the test
 * chooses. Intervals are a minute where a test must not see them run out, so each wait
 * below is one the loop ends or never does.
 */
describe('notifier: the webhook dispatcher sleeps until the next delivery falls due (ADR 2900)', () => {
  const running: WebhookDispatcher[] = [];
  afterEach(async () => {
    for (const dispatcher of running.splice(0)) await dispatcher.stop();
  });

  const start = (options: {
    readonly nextDueInMs: () => Promise<number | null>;
    readonly pollIntervalMs: number;
    readonly idlePollIntervalMs: number;
    /** How many rounds, from the first, report more due at once. */
    readonly busyRounds?: number;
    /** Called in each round, once the dispatcher exists, with the round's number. */
    readonly duringRound?: (round: number, dispatcher: WebhookDispatcher) => void;
  }) => {
    const rounds: number[] = [];
    let asked = 0;
    const dispatcher = startWebhookDispatcher({
      rounds: [
        {
          name: 'deliveries',
          run: async () => {
            rounds.push(performance.now());
            const round = rounds.length;
            await Promise.resolve();
            options.duringRound?.(round, dispatcher);
            return round <= (options.busyRounds ?? 0);
          },
        },
      ],
      nextDueInMs: () => {
        asked++;
        return options.nextDueInMs();
      },
      pollIntervalMs: options.pollIntervalMs,
      idlePollIntervalMs: options.idlePollIntervalMs,
      logger: testLogger('webhook-dispatcher'),
    });
    running.push(dispatcher);
    return { dispatcher, rounds, asked: () => asked };
  };
  const reached = (rounds: number[], n: number) =>
    eventually(() => Promise.resolve(rounds.length >= n ? true : undefined), 15_000);

  it('runs again when the next delivery falls due, long before either interval ends', async () => {
    const { rounds } = start({
      nextDueInMs: () => Promise.resolve(200),
      pollIntervalMs: 60_000,
      idlePollIntervalMs: 60_000,
    });
    await reached(rounds, 2);
    // A timer never fires early; performance.now() is finer than a millisecond.
    assert.ok(rounds[1]! - rounds[0]! >= 199, `ran again after ${rounds[1]! - rounds[0]!} ms`);
  });

  it('with nothing pending, sleeps the idle interval until something wakes it', async () => {
    const { dispatcher, rounds } = start({
      nextDueInMs: () => Promise.resolve(null),
      pollIntervalMs: 20,
      idlePollIntervalMs: 60_000,
    });
    await reached(rounds, 1);
    await sleep(300);
    assert.equal(rounds.length, 1, 'no round while nothing is due');
    dispatcher.wake();
    await reached(rounds, 2);
  });

  it('looks again after the short interval at deliveries due but left untaken', async () => {
    const { rounds } = start({
      nextDueInMs: () => Promise.resolve(0),
      pollIntervalMs: 20,
      idlePollIntervalMs: 60_000,
    });
    await reached(rounds, 3);
  });

  it('looks again after the short interval when the next due time cannot be read', async () => {
    const { rounds } = start({
      nextDueInMs: () => Promise.reject(new Error('connection refused')),
      pollIntervalMs: 20,
      idlePollIntervalMs: 60_000,
    });
    await reached(rounds, 3);
  });

  it('reads the next due time only after a round that left nothing more', async () => {
    const { rounds, asked } = start({
      nextDueInMs: () => Promise.resolve(null),
      pollIntervalMs: 20,
      idlePollIntervalMs: 60_000,
      busyRounds: 2,
    });
    await reached(rounds, 3);
    await eventually(() => Promise.resolve(asked() >= 1 ? true : undefined), 15_000);
    await sleep(100);
    assert.deepEqual({ rounds: rounds.length, asked: asked() }, { rounds: 3, asked: 1 });
  });

  it('rounds again at once when woken during a round, without reading when the next is due', async () => {
    const { rounds, asked } = start({
      nextDueInMs: () => Promise.resolve(null),
      pollIntervalMs: 60_000,
      idlePollIntervalMs: 60_000,
      duringRound: (round, dispatcher) => {
        if (round === 1) dispatcher.wake(); // a delivery written meanwhile
      },
    });
    await reached(rounds, 2);
    await eventually(() => Promise.resolve(asked() >= 1 ? true : undefined), 15_000);
    await sleep(100);
    assert.deepEqual({ rounds: rounds.length, asked: asked() }, { rounds: 2, asked: 1 });
  });
});
