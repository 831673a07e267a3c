import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMetrics, EVENT_LOOP_SAMPLE_MS } from '../../src/metrics.js';

/** A metric's value in Prometheus text. */
const value = (text: string, name: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  assert.ok(line !== undefined, `${name} is exported`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe('service metrics', () => {
  it("samples the event loop every 100 ms, not prom-client's 10 ms (ADR 2710)", async () => {
    assert.equal(EVENT_LOOP_SAMPLE_MS, 100);
    const metrics = createMetrics('test');
    // Discard what was sampled before this point, then let four samples come in.
    await metrics.render();
    await sleep(450);
    const text = await metrics.render();
    // Each sample is the time between two of the sampler's ticks, so the shortest is at
    // least the sampling interval: ~0.01 s at prom-client's default, ~0.1 s here. A busy
    // machine only lengthens ticks, so it cannot make this pass wrongly.
    const shortest = value(text, 'nodejs_eventloop_lag_min_seconds');
    assert.ok(shortest >= 0.09, `the shortest sample is ${shortest} s`);
    assert.ok(value(text, 'nodejs_eventloop_lag_p99_seconds') >= shortest);
  });
});
