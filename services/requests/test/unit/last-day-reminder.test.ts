import assert from 'node:assert/strict';
import { remindAutomatically } from '../../src/domain/automatic-reminder.js';
import type { Transition } from '../../src/domain/request-model.js';
import { remind, send, type SignatureRequest } from '../../src/domain/signature-request.js';
import { draft, later, NOW, right } from '../support/builders.js';

const policy = { minIntervalSeconds: 3600, maxReminders: 3 };
const DAY = 86_400;
const days = (n: number) => later(NOW, n * DAY);

/** A draft reminding every `interval` days, sent at NOW. */
const sentEvery = (interval: number | null, overrides: Partial<SignatureRequest> = {}): SignatureRequest =>
  right(send(draft({ reminderIntervalDays: interval, ...overrides }), NOW)).request;

/** For each reminder a transition made: whether it is marked as sent in the last day. */
const lastDayOf = (t: Transition): boolean[] =>
  t.events.flatMap((e) => (e.type === 'request.reminded' ? [e.lastDay === true] : []));

describe('requests domain: a reminder in the last day before the expiry is marked so (ADR 3470)', () => {
  it('marks the expiry warning, not the interval’s reminder before it', () => {
    const first = remindAutomatically(sentEvery(7, { expiresAt: days(10) }), days(7), policy);
    assert.deepEqual(lastDayOf(first), [false], 'three days before');
    const warned = remindAutomatically(first.request, later(days(9), 4), policy);
    assert.deepEqual(lastDayOf(warned), [true], 'the warning, a day before');
  });

  it('marks a reminder by a call from a day before expires_at, to the second, and none without an expiry', () => {
    const expiring = sentEvery(null, { expiresAt: days(10) });
    assert.deepEqual(lastDayOf(right(remind(expiring, days(9), policy))), [true], 'exactly a day before');
    assert.deepEqual(
      lastDayOf(right(remind(expiring, later(days(9), -1), policy))),
      [false],
      'a second earlier',
    );
    assert.deepEqual(lastDayOf(right(remind(sentEvery(null), days(9), policy))), [false], 'no expiry');
  });
});
