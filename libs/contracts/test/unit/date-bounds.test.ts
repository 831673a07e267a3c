import assert from 'node:assert/strict';
import { boundDays, boundsCross, isRelativeBound, resolveBound } from '../../src/date-bounds.js';

/** ADR 3650: a date's bound fixed, or moved from the signer's day by whole days. */
describe('contracts: a date field’s bounds (ADRs 3620, 3650)', () => {
  it('reads a relative bound’s days, and nothing else as one', () => {
    assert.deepEqual(['today', 'today+30', 'today-7', 'today+3660'].map(boundDays), [0, 30, -7, 3660]);
    for (const other of ['2030-01-31', 'today+0', 'today+3661', 'today+ 1', 'today+01', 'tomorrow', ''])
      assert.equal(isRelativeBound(other), false, other);
  });

  it('resolves a bound on the signer’s day, across months, years and leap days', () => {
    assert.equal(resolveBound('2030-01-31', '2031-05-05'), '2030-01-31', 'a fixed date is itself');
    assert.equal(resolveBound('2030-01-31', undefined), '2030-01-31');
    assert.equal(resolveBound('today', '2030-06-01'), '2030-06-01');
    assert.equal(resolveBound('today+1', '2030-12-31'), '2031-01-01');
    assert.equal(resolveBound('today-1', '2024-03-01'), '2024-02-29');
    assert.equal(resolveBound('today+3660', '2030-01-01'), '2040-01-09');
    assert.equal(resolveBound('today+30', undefined), undefined, 'not known before the signer’s day');
  });

  it('finds two fixed or two relative bounds the wrong way round, never a fixed and a relative one', () => {
    assert.equal(boundsCross('2031-01-02', '2031-01-01'), true);
    assert.equal(boundsCross('2031-01-01', '2031-01-01'), false);
    assert.equal(boundsCross('today+30', 'today+7'), true);
    assert.equal(boundsCross('today-7', 'today'), false);
    assert.equal(boundsCross('today+30', '2020-01-01'), false);
    assert.equal(boundsCross('2040-01-01', 'today'), false);
  });
});
