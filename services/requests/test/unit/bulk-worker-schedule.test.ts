import assert from 'node:assert/strict';
import { nextBulkRunMs } from '../../src/background.js';

describe('requests: when the bulk-send worker runs again (ADRs 2680, 2910)', () => {
  const reads: number[] = [];
  const due = (ms: number | null) => () => {
    reads.push(1);
    return Promise.resolve(ms);
  };
  beforeEach(() => reads.splice(0));

  it('comes back after 50 ms while rows settle, without reading when the next is due', async () => {
    assert.equal(await nextBulkRunMs(3, true, due(null)), 50);
    assert.equal(reads.length, 0);
  });

  it('waits a second when other replicas cannot wake it (LISTEN down), as before', async () => {
    assert.equal(await nextBulkRunMs(0, false, due(null)), 1_000);
    assert.equal(reads.length, 0);
  });

  it('while they can, sleeps until the next pending row falls due, at most 10 s', async () => {
    assert.equal(await nextBulkRunMs(0, true, due(null)), 10_000);
    assert.equal(await nextBulkRunMs(0, true, due(2_400)), 2_400);
    assert.equal(await nextBulkRunMs(0, true, due(90_000)), 10_000);
    assert.equal(reads.length, 3);
  });

  it('looks again after a second at rows due now that another replica holds', async () => {
    assert.equal(await nextBulkRunMs(0, true, due(0)), 1_000);
  });
});
