import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../../src/index.js';
import { createLogger } from '../../src/logger.js';
import {
  startMemoryReducerNudge,
  startMemoryReducerNudging,
  v8NeedsNudge,
} from '../../src/memory-reducer.js';

describe("the memory reducer's nudge (V8_MEMORY_REDUCER_NUDGE: ADR 2860)", () => {
  const logger = createLogger('test', 'silent');

  it('is needed from V8 13 (Node 24) on, not on V8 11 (Node 20)', () => {
    assert.equal(v8NeedsNudge('13.6.233.17-node.53'), true);
    assert.equal(v8NeedsNudge('14.4.258.16'), true);
    assert.equal(v8NeedsNudge('11.3.244.8-node.33'), false);
    assert.equal(v8NeedsNudge('12.4.254.21-node.33'), false);
  });

  it('starts by default where V8 needs it, and not where it does not or with V8_MEMORY_REDUCER_NUDGE=false', () => {
    const nudge = startMemoryReducerNudging(logger, {}, '13.6.233.17');
    assert.notEqual(nudge, undefined);
    nudge?.stop();
    assert.equal(startMemoryReducerNudging(logger, {}, '11.3.244.8'), undefined);
    assert.equal(
      startMemoryReducerNudging(logger, { V8_MEMORY_REDUCER_NUDGE: 'false' }, '13.6.233.17'),
      undefined,
    );
  });

  it('refuses a V8_MEMORY_REDUCER_NUDGE that is not true or false, naming the variable', () => {
    for (const value of ['maybe', 'on', '2'])
      assert.throws(
        () => startMemoryReducerNudging(logger, { V8_MEMORY_REDUCER_NUDGE: value }, '13.6.233.17'),
        (error: Error) => error instanceof ConfigError && /V8_MEMORY_REDUCER_NUDGE/.test(error.message),
      );
  });

  it('allocates on its timer until stopped', async () => {
    let calls = 0;
    const nudge = startMemoryReducerNudge(5, () => (calls += 1));
    // However slow the machine, the timer fires; mocha's timeout bounds the wait.
    while (calls < 2) await sleep(5);
    nudge.stop();
    const stoppedAt = calls;
    await sleep(30);
    assert.equal(calls, stoppedAt);
  });
});
