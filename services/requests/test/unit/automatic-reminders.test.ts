import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { CreateRequestBody, CreateBulkSendBody, decode } from '@esign/contracts';
import { remindAutomatically } from '../../src/domain/automatic-reminder.js';
import { rowBody } from '../../src/domain/bulk-send.js';
import { createSignatureRequest } from '../../src/domain/request-creation.js';
import { nextReminderAt } from '../../src/domain/reminder-schedule.js';
import {
  cancel,
  decline,
  expire,
  remind,
  send,
  sign,
  type SignatureRequest,
} from '../../src/domain/signature-request.js';
import type { RequestSigner } from '../../src/domain/request-model.js';
import { body, creationInput, draft, later, NOW, right, signer } from '../support/builders.js';

const policy = { minIntervalSeconds: 3600, maxReminders: 3 };
const DAY = 86_400;
const days = (n: number) => later(NOW, n * DAY);

/** A draft reminding every `interval` days, sent at NOW. */
const sentEvery = (interval: number, overrides: Partial<SignatureRequest> = {}): SignatureRequest =>
  right(send(draft({ reminderIntervalDays: interval, ...overrides }), NOW)).request;

describe('requests domain: automatic reminders (ADR 3130)', () => {
  describe('the schedule', () => {
    it('is set at send, the interval after it, and none without an interval', () => {
      assert.equal(sentEvery(3).nextReminderAt, days(3));
      assert.equal(right(send(draft(), NOW)).request.nextReminderAt, null);
      assert.equal(draft({ reminderIntervalDays: 3 }).nextReminderAt, null, 'a draft has none');
    });

    it('never falls at or past expires_at', () => {
      assert.equal(sentEvery(3, { expiresAt: later(days(1), 3600) }).nextReminderAt, null);
      assert.equal(sentEvery(3, { expiresAt: later(days(4), 1) }).nextReminderAt, days(3));
    });

    describe('the expiry warning (ADR 3470)', () => {
      it('comes a day before expires_at when the interval’s reminder would come later or not at all', () => {
        assert.equal(sentEvery(3, { expiresAt: days(3) }).nextReminderAt, days(2));
        assert.equal(sentEvery(3, { expiresAt: later(days(3), 1) }).nextReminderAt, later(days(2), 1));
        assert.equal(sentEvery(7, { expiresAt: days(10) }).nextReminderAt, days(7), 'the interval first');
      });

      it('goes once: after it, nothing more before the expiry', () => {
        const request = sentEvery(7, { expiresAt: days(10) });
        const first = remindAutomatically(request, days(7), policy);
        assert.equal(first.request.nextReminderAt, days(9), 'then the warning, two days later');
        const warned = remindAutomatically(first.request, later(days(9), 4), policy);
        assert.deepEqual(
          warned.events.map(
            (e) => e.type === 'request.reminded' && [e.notify.map((s) => s.signerRef), e.automatic],
          ),
          [
            [
              first.events[0]?.type === 'request.reminded' && first.events[0].notify.map((s) => s.signerRef),
              true,
            ],
          ],
          'the same signers as the reminder before',
        );
        assert.equal(warned.request.remindCount, 2, 'counted as a reminder');
        assert.equal(warned.request.nextReminderAt, null);
      });

      it('is not sent to signers told less than a day before it, nor without automatic reminders', () => {
        assert.equal(sentEvery(3, { expiresAt: later(days(2), -1) }).nextReminderAt, null);
        const told = right(remind(sentEvery(5, { expiresAt: days(4) }), later(days(2), 1), policy)).request;
        assert.equal(told.nextReminderAt, null, 'reminded by a call just under a day before it');
        const manual = right(send(draft({ expiresAt: days(4) }), NOW)).request;
        assert.equal(manual.nextReminderAt, null);
        assert.equal(
          nextReminderAt(sentEvery(3, { expiresAt: days(3), remindCount: 3 }), 3),
          null,
          'the limit',
        );
      });
    });

    it('is pushed back by a manual reminder, and cleared by one that reaches the limit', () => {
      const reminded = right(remind(sentEvery(2), days(1), policy)).request;
      assert.equal(reminded.nextReminderAt, days(3), 'two days after the manual reminder');
      const last = right(remind(sentEvery(2, { remindCount: 2 }), days(1), policy)).request;
      assert.equal(last.remindCount, 3);
      assert.equal(last.nextReminderAt, null, 'the limit is reached: no more');
      assert.equal(nextReminderAt(sentEvery(2, { remindCount: 3 }), 3), null);
    });

    describe('when a later turn starts (signing in order)', () => {
      const inOrder = (
        interval: number,
        first: Partial<RequestSigner> = {},
        overrides: Partial<SignatureRequest> = {},
      ) =>
        sentEvery(interval, {
          signers: [
            signer({ order: 1, ...first }),
            signer({ signerId: 'b@x.co', signerRef: 'ref1', order: 2 }),
            signer({ signerId: 'c@x.co', signerRef: 'ref2', order: 3 }),
          ],
          fields: [],
          ...overrides,
        });

      it("counts from the turn's start, when its signers were first told", () => {
        const reminded = right(remind(inOrder(3), days(2), policy)).request;
        assert.equal(reminded.nextReminderAt, days(5));
        const turn = right(sign(reminded, 'ref0', days(4)));
        assert.ok(turn.events.some((e) => e.type === 'request.turn_started'));
        assert.equal(turn.request.nextReminderAt, days(7), 'three days after the new turn was told, not one');
      });

      it('starts again after a turn nobody could be reminded in', () => {
        // The first signer signs where the client shows them the page (no channel): the
        // sweep found nobody to remind and stopped the schedule.
        const quiet = remindAutomatically(
          inOrder(2, { sendTo: { email: false, sms: false } }),
          days(2),
          policy,
        );
        assert.deepEqual(quiet.events, []);
        assert.equal(quiet.request.nextReminderAt, null);
        const turn = right(sign(quiet.request, 'ref0', days(3))).request;
        assert.equal(turn.nextReminderAt, days(5), 'the second signer is reminded two days after being told');
        const due = remindAutomatically(turn, days(5), policy);
        assert.deepEqual(due.events, [
          { type: 'request.reminded', notify: [turn.signers[1]], automatic: true },
        ]);
      });

      it('keeps the schedule within a turn, never past expires_at, and none without an interval', () => {
        const parallel = inOrder(3, {}, {});
        const sameTurn = right(
          sign(
            {
              ...parallel,
              signers: [parallel.signers[0]!, { ...parallel.signers[1]!, order: 1 }, parallel.signers[2]!],
            },
            'ref0',
            days(1),
          ),
        );
        assert.deepEqual(
          sameTurn.events.map((e) => e.type),
          ['request.signed'],
        );
        assert.equal(sameTurn.request.nextReminderAt, days(3), 'a signature within a turn changes nothing');
        assert.equal(
          right(sign(inOrder(3, {}, { expiresAt: days(4) }), 'ref0', days(1))).request.nextReminderAt,
          days(3),
          'the interval falls at the expiry: the warning a day before it (ADR 3470)',
        );
        assert.equal(
          right(sign(inOrder(3, {}, { expiresAt: later(days(2), 3600) }), 'ref0', days(1))).request
            .nextReminderAt,
          null,
          'the turn started less than a day before the warning',
        );
        const none = right(
          sign(right(send(draft({ signers: inOrder(3).signers, fields: [] }), NOW)).request, 'ref0', days(1)),
        );
        assert.equal(none.request.nextReminderAt, null);
      });
    });

    it('is cleared when the Request completes, is declined, cancelled or expires', () => {
      const one = sentEvery(2, { signers: [signer()], fields: [] });
      assert.equal(right(sign(one, 'ref0', days(1))).request.nextReminderAt, null, 'completed');
      const two = sentEvery(2);
      assert.equal(right(sign(two, 'ref0', days(1))).request.nextReminderAt, days(2), 'still sent');
      assert.equal(right(decline(two, 'ref0', days(1), 'no')).request.nextReminderAt, null, 'declined');
      assert.equal(right(cancel(two, days(1))).request.nextReminderAt, null, 'cancelled');
      const expiring = sentEvery(2, { expiresAt: days(5) });
      assert.equal(right(expire(expiring, days(5))).request.nextReminderAt, null, 'expired');
    });
  });

  describe('remindAutomatically', () => {
    it('at the due time reminds the same signers a manual reminder would, marked automatic, and schedules the next', () => {
      const request = sentEvery(2, {
        signers: [
          signer(),
          signer({ signerId: 'done', signerRef: 'r1', state: 'signed' }),
          signer({ signerId: 'mute', signerRef: 'r2', sendTo: { email: false, sms: false } }),
          signer({ signerId: 'later', signerRef: 'r3', order: null }),
        ],
        fields: [],
      });
      const manual = right(remind(request, days(2), policy));
      const automatic = remindAutomatically(request, days(2), policy);
      assert.deepEqual(automatic.events, [
        { type: 'request.reminded', notify: [request.signers[0], request.signers[3]], automatic: true },
      ]);
      assert.deepEqual(
        automatic.events.map((e) => e.type === 'request.reminded' && e.notify),
        manual.events.map((e) => e.type === 'request.reminded' && e.notify),
      );
      assert.equal(automatic.request.remindCount, 1, 'counts towards REMIND_MAX');
      assert.equal(automatic.request.lastRemindedAt, days(2));
      assert.equal(automatic.request.nextReminderAt, days(4));
    });

    it('only reminds whose turn it is when signing in order', () => {
      const request = sentEvery(1, {
        signers: [signer({ order: 1 }), signer({ signerId: 'b@x.co', signerRef: 'ref1', order: 2 })],
        fields: [],
      });
      const { events } = remindAutomatically(request, days(1), policy);
      assert.deepEqual(events, [{ type: 'request.reminded', notify: [request.signers[0]], automatic: true }]);
    });

    it('leaves a Request that is not due as it is', () => {
      const request = sentEvery(2);
      assert.deepEqual(remindAutomatically(request, later(days(2), -1), policy), { request, events: [] });
    });

    it('stops the schedule at the limit, when nothing is left to remind, and once not sent or expired', () => {
      const limit = remindAutomatically(sentEvery(1, { remindCount: 3 }), days(1), policy);
      assert.deepEqual(limit.events, []);
      assert.equal(limit.request.nextReminderAt, null);
      assert.equal(limit.request.remindCount, 3);
      const lastOne = remindAutomatically(sentEvery(1, { remindCount: 2 }), days(1), policy);
      assert.equal(lastOne.events.length, 1);
      assert.equal(lastOne.request.nextReminderAt, null, 'that was the last one allowed');
      const nobody = sentEvery(1, { signers: [signer({ sendTo: { email: false, sms: false } })] });
      const none = remindAutomatically(nobody, days(1), policy);
      assert.deepEqual(none.events, []);
      assert.equal(none.request.nextReminderAt, null);
      const expired = remindAutomatically({ ...sentEvery(1), expiresAt: days(1) }, days(1), policy);
      assert.deepEqual(expired.events, []);
      assert.equal(expired.request.nextReminderAt, null);
      const cancelled = remindAutomatically({ ...sentEvery(1), state: 'cancelled' }, days(1), policy);
      assert.equal(cancelled.request.nextReminderAt, null);
    });

    it('moves the reminder to when the policy allows it after a recent notification', () => {
      const strict = { minIntervalSeconds: 2 * DAY, maxReminders: 3 };
      const moved = remindAutomatically(sentEvery(1), days(1), strict);
      assert.deepEqual(moved.events, []);
      assert.equal(moved.request.nextReminderAt, days(2));
      const beyond = remindAutomatically(sentEvery(1, { expiresAt: days(2) }), days(1), strict);
      assert.equal(beyond.request.nextReminderAt, null, 'not at or past expires_at');
    });
  });

  describe('reminder_interval_days in the create body', () => {
    const base = { contracts: [11], signers: [{ signer_id: 'a@b.co' }] };
    const errorsOf = (value: unknown) => {
      const decoded = decode(CreateRequestBody)({ ...base, reminder_interval_days: value });
      return E.isLeft(decoded) ? decoded.left : [];
    };

    it('accepts 1 to 30, null and absence', () => {
      for (const value of [1, 30, null]) assert.deepEqual(errorsOf(value), [], String(value));
      assert.ok(E.isRight(decode(CreateRequestBody)(base)));
    });

    it('refuses 0, 31, 1.5 and "3" at its path', () => {
      for (const value of [0, 31, 1.5, -1]) {
        assert.deepEqual(errorsOf(value), [
          {
            path: 'reminder_interval_days',
            message: 'must be an integer from 1 to 30 (days), or null for no automatic reminders',
          },
        ]);
      }
      assert.deepEqual(errorsOf('3'), [
        { path: 'reminder_interval_days', message: 'must be a number or null' },
      ]);
    });

    it('is kept on the draft, null when absent', () => {
      const created = right(
        createSignatureRequest(
          creationInput({ body: body({ ...base, contracts: [11], reminder_interval_days: 7 }) }),
        ),
      );
      assert.equal(created.request.reminderIntervalDays, 7);
      assert.equal(created.request.nextReminderAt, null);
      const without = right(createSignatureRequest(creationInput({ body: body(base) })));
      assert.equal(without.request.reminderIntervalDays, null);
    });

    it('is a shared field of a bulk send, given to every row', () => {
      const shared = decode(CreateBulkSendBody)({ contracts: [11], rows: [{}], reminder_interval_days: 5 });
      assert.ok(E.isRight(shared));
      const { rows: _rows, ...rest } = shared.right;
      const row = rowBody(rest, 0, { signers: [{ signer_id: 'a@b.co' }] });
      assert.ok(E.isRight(row));
      assert.equal(row.right.reminder_interval_days, 5);
      const bad = decode(CreateBulkSendBody)({ contracts: [11], rows: [{}], reminder_interval_days: 31 });
      assert.ok(E.isLeft(bad));
      assert.equal(bad.left[0]!.path, 'reminder_interval_days');
    });
  });
});
