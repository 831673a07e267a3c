import assert from 'node:assert/strict';
import { eventually, testLogger } from '@esign/testing';
import { recurring } from '../../src/adapters/periodic.js';

/** Longer than any test here runs: a run that comes at all came because it was woken. */
const NEVER_MS = 600_000;

/** Waits until `holds` is true (at most 10 s, which only a broken schedule takes). */
const until = (holds: () => boolean) =>
  eventually(() => Promise.resolve(holds() ? true : undefined), 10_000, 5);

/** A run that waits until the test lets it end. */
const gate = () => {
  let open: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { closed, open: () => open() };
};

describe('recurring (ADR 2680)', () => {
  it('runs again after the delay each run answers', async () => {
    const delays = [0, 0, NEVER_MS];
    let runs = 0;
    const task = recurring('test', testLogger(), { firstMs: 0, retryMs: NEVER_MS }, () =>
      Promise.resolve(delays[runs++]!),
    );
    try {
      await until(() => runs === 3);
    } finally {
      await task.stop();
    }
    assert.equal(runs, 3, 'the third run asked for a long wait');
  });

  it('cuts an idle wait short when woken', async () => {
    let runs = 0;
    const task = recurring('test', testLogger(), { firstMs: NEVER_MS, retryMs: NEVER_MS }, () => {
      runs++;
      return Promise.resolve(NEVER_MS);
    });
    try {
      task.wake();
      await until(() => runs === 1);
      task.wake();
      await until(() => runs === 2);
    } finally {
      await task.stop();
    }
  });

  it('woken during a run, runs once more as soon as it ends, never two at once', async () => {
    const first = gate();
    let runs = 0;
    let inRun = 0;
    let most = 0;
    const task = recurring('test', testLogger(), { firstMs: 0, retryMs: NEVER_MS }, async () => {
      runs++;
      inRun++;
      most = Math.max(most, inRun);
      if (runs === 1) await first.closed;
      inRun--;
      return NEVER_MS;
    });
    try {
      await until(() => runs === 1);
      task.wake();
      task.wake();
      first.open();
      await until(() => runs === 2);
    } finally {
      await task.stop();
    }
    assert.equal(runs, 2, 'two wake-ups during one run make one more run');
    assert.equal(most, 1);
  });

  it('logs a failed run and tries again after the retry delay', async () => {
    let runs = 0;
    const task = recurring('test', testLogger(), { firstMs: 0, retryMs: 0 }, () => {
      runs++;
      return runs === 1 ? Promise.reject(new Error('database away')) : Promise.resolve(NEVER_MS);
    });
    try {
      await until(() => runs === 2);
    } finally {
      await task.stop();
    }
  });

  it('stop waits for the run under way and no run follows it', async () => {
    const run = gate();
    let runs = 0;
    let ended = false;
    const task = recurring('test', testLogger(), { firstMs: 0, retryMs: 0 }, async () => {
      runs++;
      await run.closed;
      ended = true;
      return 0;
    });
    await until(() => runs === 1);
    const stopped = task.stop();
    task.wake();
    run.open();
    await stopped;
    assert.equal(ended, true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(runs, 1);
  });
});
