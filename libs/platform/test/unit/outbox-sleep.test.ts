import assert from 'node:assert/strict';
import { relaySleepMs } from '../../src/outbox-sleep.js';

describe('platform: how long the outbox relay sleeps after a round (ADR 2890)', () => {
  const schedule = { pollIntervalMs: 1_000, listeningPollIntervalMs: 10_000 };
  const nothing = { dueInMs: null, othersDue: false };

  it('with nothing pending, sleeps the long interval while LISTEN is up, the short one while it is not', () => {
    assert.equal(relaySleepMs(nothing, true, schedule), 10_000);
    assert.equal(relaySleepMs(nothing, false, schedule), 1_000);
  });

  it('wakes when the next pending row falls due, if that comes before the interval ends', () => {
    assert.equal(relaySleepMs({ dueInMs: 2_500, othersDue: false }, true, schedule), 2_500);
    assert.equal(relaySleepMs({ dueInMs: 2_500, othersDue: false }, false, schedule), 1_000);
    assert.equal(relaySleepMs({ dueInMs: 60_000, othersDue: false }, true, schedule), 10_000);
  });

  it('never wakes before the row is due: a fraction of a millisecond is rounded up', () => {
    assert.equal(relaySleepMs({ dueInMs: 0.2, othersDue: false }, true, schedule), 1);
    assert.equal(relaySleepMs({ dueInMs: 41.01, othersDue: false }, true, schedule), 42);
  });

  it('looks again after the short interval while another relay holds rows that are due', () => {
    // Another relay's drain has them locked; should it die, nothing would NOTIFY.
    assert.equal(relaySleepMs({ dueInMs: 5_000, othersDue: true }, true, schedule), 1_000);
    assert.equal(relaySleepMs({ dueInMs: null, othersDue: true }, true, schedule), 1_000);
  });

  it('keeps to the short interval when it is the longer one (a test relay polling every minute)', () => {
    const slow = { pollIntervalMs: 60_000, listeningPollIntervalMs: 10_000 };
    assert.equal(relaySleepMs(nothing, true, slow), 60_000);
    assert.equal(relaySleepMs({ dueInMs: 2_500, othersDue: false }, true, slow), 2_500);
  });
});
