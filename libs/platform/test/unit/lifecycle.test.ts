import assert from 'node:assert/strict';
import { testLogger } from '@esign/testing';
import { handleShutdown } from '../../src/index.js';

describe('platform: shutdown steps', () => {
  afterEach(() => {
    process.removeAllListeners('SIGTERM');
    process.removeAllListeners('SIGINT');
  });

  it('leaves a step that outlives the budget behind, runs the next ones, and exits 1', async () => {
    const order: string[] = [];
    let exitCode: number | undefined;
    const shutdown = handleShutdown({
      logger: testLogger(),
      servers: [],
      stepsMs: 300,
      steps: [
        { name: 'consumer', run: () => Promise.resolve(void order.push('consumer')) },
        { name: 'stuck broker', run: () => new Promise<void>(() => order.push('broker started')) },
        { name: 'pool', run: () => Promise.resolve(void order.push('pool')) },
      ],
      exit: (code) => void (exitCode = code),
    });
    await shutdown();
    assert.deepEqual(order, ['consumer', 'broker started', 'pool']);
    assert.equal(exitCode, 1);
  });

  it('exits 0 when every step ends within the budget', async () => {
    let exitCode: number | undefined;
    const shutdown = handleShutdown({
      logger: testLogger(),
      servers: [],
      steps: [{ name: 'pool', run: () => new Promise<void>((resolve) => setTimeout(resolve, 20)) }],
      exit: (code) => void (exitCode = code),
    });
    await shutdown();
    assert.equal(exitCode, 0);
  });
});
