import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import {
  DEFAULT_THROTTLE,
  delayAfter,
  registerAttempt,
  type AttemptState,
} from '../../src/domain/throttle.js';

const t0 = new Date('2030-01-01T00:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

/** Plays attempts at the given times; answers what each got. */
const play = (times: number[]) => {
  let state: AttemptState | undefined;
  return times.map((s) => {
    const decision = registerAttempt(state, at(s));
    if (E.isRight(decision)) state = decision.right;
    return decision;
  });
};

describe('auth domain: password attempt throttle', () => {
  it('lets the first five attempts through back to back', () => {
    assert.ok(play([0, 0, 0, 0, 0]).every(E.isRight));
  });

  it('makes the sixth wait 30 s, and says how long in whole seconds', () => {
    const [, , , , , sixth] = play([0, 0, 0, 0, 0, 10]);
    assert.deepEqual(sixth, E.left({ retryAfterSeconds: 20 }));
    assert.ok(E.isRight(play([0, 0, 0, 0, 0, 30])[5]!));
  });

  it('doubles the delay after each further attempt, up to 15 minutes', () => {
    assert.deepEqual(
      [5, 6, 7, 8, 9, 10, 11, 20].map((n) => delayAfter(n)),
      [30, 60, 120, 240, 480, 900, 900, 900],
    );
    assert.equal(delayAfter(4), 0);
    assert.equal(delayAfter(10_000), DEFAULT_THROTTLE.maxDelaySeconds);
  });

  it('does not count a blocked attempt, so waiting it out is enough', () => {
    const results = play([0, 0, 0, 0, 0, 1, 2, 3, 30]);
    assert.ok(results.slice(5, 8).every(E.isLeft));
    const last = results[8]!;
    assert.ok(E.isRight(last));
    assert.equal(last.right.attempts, 6);
  });

  it('forgets the count after an hour without attempts, but not while it waits out the longest delay', () => {
    let state: AttemptState | undefined;
    for (let i = 0; i < 12; i++) {
      const d = registerAttempt(state, at(i * 1000));
      assert.ok(E.isRight(d));
      state = d.right;
    }
    // 15 minutes after the last attempt: allowed, still counting.
    const after15 = registerAttempt(state, at(11 * 1000 + 901));
    assert.ok(E.isRight(after15));
    assert.equal(after15.right.attempts, 13);
    // An hour of quiet: a fresh count.
    const afterHour = registerAttempt(after15.right, at(11 * 1000 + 901 + 3601));
    assert.ok(E.isRight(afterHour));
    assert.equal(afterHour.right.attempts, 1);
    assert.equal(afterHour.right.blockedUntil, null);
  });
});
