import assert from 'node:assert/strict';
import { createWaker, sleepUntilDueMs } from '../../src/waker.js';

describe('platform: how long a worker that knows its next due row sleeps (ADR 2900)', () => {
  const schedule = { pollIntervalMs: 1_000, idlePollIntervalMs: 10_000 };

  it('with nothing pending, sleeps the idle interval', () => {
    assert.equal(sleepUntilDueMs(null, schedule), 10_000);
  });

  it('wakes when the next row falls due, if that comes before the idle interval ends', () => {
    assert.equal(sleepUntilDueMs(2_500, schedule), 2_500);
    assert.equal(sleepUntilDueMs(250, schedule), 250);
    assert.equal(sleepUntilDueMs(60_000, schedule), 10_000);
  });

  it('never wakes before the row is due: a fraction of a millisecond is rounded up', () => {
    assert.equal(sleepUntilDueMs(0.2, schedule), 1);
    assert.equal(sleepUntilDueMs(41.01, schedule), 42);
  });

  it('looks again after the short interval at rows already due that the round left (another worker holds them)', () => {
    assert.equal(sleepUntilDueMs(0, schedule), 1_000);
    assert.equal(sleepUntilDueMs(-3_000, schedule), 1_000);
  });

  it('keeps to the short interval when it is the longer one', () => {
    const slow = { pollIntervalMs: 60_000, idlePollIntervalMs: 10_000 };
    assert.equal(sleepUntilDueMs(null, slow), 60_000);
    assert.equal(sleepUntilDueMs(30_000, slow), 30_000);
  });
});

describe('platform: a waker remembers a wake-up that came while its loop was busy', () => {
  it('says it was woken from the wake-up to the next settle, and then sleeps no time', async () => {
    const waker = createWaker();
    assert.equal(waker.woken(), false);
    waker.wake();
    assert.equal(waker.woken(), true);
    const started = performance.now();
    await waker.sleep(60_000);
    assert.ok(performance.now() - started < 30_000, 'the remembered wake-up ended the sleep');
    waker.settle();
    assert.equal(waker.woken(), false);
  });
});
