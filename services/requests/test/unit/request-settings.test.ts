import assert from 'node:assert/strict';
import { changeSettings } from '../../src/domain/request-settings.js';
import { draft, later, left, NOW, right, sent, signer } from '../support/builders.js';

const DAY = 86_400;
const AT = later(NOW, 3 * DAY);
const MAX = 3;

describe('requests domain: changing an open Request’s expiry and reminders (ADR 3150)', () => {
  it('a draft keeps what it is given, with no reminder scheduled before the send', () => {
    const { request, events } = right(
      changeSettings(draft(), { expiresAt: later(NOW, 10 * DAY), reminderIntervalDays: 2 }, AT, MAX),
    );
    assert.equal(request.expiresAt, later(NOW, 10 * DAY));
    assert.equal(request.reminderIntervalDays, 2);
    assert.equal(request.nextReminderAt, null);
    assert.equal(request.updatedAt, AT);
    assert.deepEqual(events, [
      { type: 'request.updated', changed: ['expires_at', 'reminder_interval_days'] },
    ]);
  });

  it('a sent Request’s reminders count again from the last notification: the send, the last reminder, a later turn', () => {
    const fromSend = right(changeSettings(sent(), { reminderIntervalDays: 2 }, AT, MAX)).request;
    assert.equal(fromSend.nextReminderAt, later(NOW, 2 * DAY), 'due before now: the sweep sends it at once');
    const reminded = sent({ lastRemindedAt: later(NOW, DAY), remindCount: 1 });
    assert.equal(
      right(changeSettings(reminded, { reminderIntervalDays: 5 }, AT, MAX)).request.nextReminderAt,
      later(NOW, 6 * DAY),
    );
    const ordered = sent({
      signers: [
        signer({ order: 1, state: 'signed', signedAt: later(NOW, 2 * DAY) }),
        signer({ signerId: 'bob@example.com', signerRef: 'ref1', order: 2 }),
      ],
    });
    assert.equal(
      right(changeSettings(ordered, { reminderIntervalDays: 1 }, AT, MAX)).request.nextReminderAt,
      later(NOW, 3 * DAY),
      'the second turn started when the first signed',
    );
  });

  it('null stops the reminders; the limit reached or the expiry before the next one schedules none but its warning', () => {
    const scheduled = sent({ reminderIntervalDays: 2, nextReminderAt: later(NOW, 2 * DAY) });
    const stopped = right(changeSettings(scheduled, { reminderIntervalDays: null }, AT, MAX)).request;
    assert.equal(stopped.reminderIntervalDays, null);
    assert.equal(stopped.nextReminderAt, null);
    const spent = sent({ remindCount: MAX, lastRemindedAt: later(NOW, DAY) });
    assert.equal(
      right(changeSettings(spent, { reminderIntervalDays: 1 }, AT, MAX)).request.nextReminderAt,
      null,
    );
    const soon = sent({ reminderIntervalDays: 7, expiresAt: later(NOW, 5 * DAY) });
    assert.equal(
      right(changeSettings(soon, { reminderIntervalDays: 6 }, AT, MAX)).request.nextReminderAt,
      later(NOW, 4 * DAY),
      'the sixth day is past the expiry: only the warning a day before it (ADR 3470)',
    );
    const sooner = sent({
      reminderIntervalDays: 7,
      expiresAt: later(NOW, 3.5 * DAY),
      lastRemindedAt: later(NOW, 2 * DAY),
      remindCount: 1,
    });
    assert.equal(
      right(changeSettings(sooner, { reminderIntervalDays: 6 }, AT, MAX)).request.nextReminderAt,
      null,
      'reminded less than a day before the warning would be: none',
    );
    const extended = right(changeSettings(soon, { expiresAt: later(NOW, 30 * DAY) }, AT, MAX)).request;
    assert.equal(extended.expiresAt, later(NOW, 30 * DAY));
    assert.equal(extended.nextReminderAt, later(NOW, 7 * DAY), 'a longer life makes room for the reminder');
  });

  it('removes the expiry with null; the same values again change nothing and write no event', () => {
    const expiring = sent({ expiresAt: later(NOW, 5 * DAY) });
    assert.equal(right(changeSettings(expiring, { expiresAt: null }, AT, MAX)).request.expiresAt, null);
    const same = changeSettings(
      expiring,
      { expiresAt: '2030-01-06T13:00:00+01:00', reminderIntervalDays: null },
      AT,
      MAX,
    );
    assert.deepEqual(right(same), { request: expiring, events: [] }, 'the same instant, written otherwise');
  });

  it('refuses a Request that ended, and one whose expiry has passed', () => {
    for (const state of ['completed', 'cancelled', 'expired', 'declined'] as const)
      assert.deepEqual(left(changeSettings(sent({ state }), { reminderIntervalDays: 1 }, AT, MAX)), {
        _tag: 'StateConflict',
        action: 'update',
        state,
      });
    assert.deepEqual(
      left(changeSettings(sent({ expiresAt: later(NOW, DAY) }), { expiresAt: later(NOW, 9 * DAY) }, AT, MAX)),
      { _tag: 'RequestExpired', expiresAt: later(NOW, DAY) },
    );
  });
});

describe('requests domain: replacing a draft’s render_data (ADR 3220)', () => {
  const filled = draft({ renderData: { name: 'Ann', amount: '100' } });

  it('replaces it whole on a draft, saying so in the event; the same data again changes nothing', () => {
    const { request, events } = right(changeSettings(filled, { renderData: { name: 'Ann Lee' } }, AT, MAX));
    assert.deepEqual(request.renderData, { name: 'Ann Lee' }, 'a key left out is gone');
    assert.equal(request.updatedAt, AT);
    assert.deepEqual(events, [{ type: 'request.updated', changed: ['render_data'] }]);
    assert.deepEqual(
      right(changeSettings(filled, { renderData: { amount: '100', name: 'Ann' } }, AT, MAX)),
      { request: filled, events: [] },
      'the same keys and values, in another order',
    );
    const both = right(changeSettings(filled, { renderData: {}, reminderIntervalDays: 3 }, AT, MAX));
    assert.deepEqual(both.request.renderData, {});
    assert.deepEqual(both.events, [
      { type: 'request.updated', changed: ['reminder_interval_days', 'render_data'] },
    ]);
  });

  it('keeps the very object when nothing changed it, which is how the store knows not to write it', () => {
    assert.equal(
      right(changeSettings(filled, { reminderIntervalDays: 2 }, AT, MAX)).request.renderData,
      filled.renderData,
    );
  });

  it('refuses it once the Request is sent, or after: its signers have been shown the document', () => {
    for (const state of ['sent', 'completed'] as const)
      assert.deepEqual(left(changeSettings(sent({ state }), { renderData: { name: 'Bob' } }, AT, MAX)), {
        _tag: 'StateConflict',
        action: state === 'sent' ? 'update_render_data' : 'update',
        state,
      });
  });
});

describe('requests domain: replacing a draft’s fields (ADR 3220)', () => {
  const open = draft({ fields: [{ name: 'signature', defaultValue: null, assignedTo: null }] });
  const assigned = [{ name: 'signature', defaultValue: null, assignedTo: 'ann@example.com' }];

  it('replaces them on a draft, saying so; the same fields again change nothing and keep the array', () => {
    const { request, events } = right(changeSettings(open, { fields: assigned }, AT, MAX));
    assert.deepEqual(request.fields, assigned);
    assert.deepEqual(events, [{ type: 'request.updated', changed: ['fields'] }]);
    const same = right(changeSettings(open, { fields: [{ ...open.fields[0]! }] }, AT, MAX));
    assert.deepEqual(same, { request: open, events: [] });
  });

  it('refuses them once the Request is sent', () => {
    assert.deepEqual(left(changeSettings(sent(), { fields: assigned }, AT, MAX)), {
      _tag: 'StateConflict',
      action: 'update_fields',
      state: 'sent',
    });
  });
});

describe('requests domain: replacing an open Request’s carbon copies (ADR 3230)', () => {
  it('replaces them on a sent Request too, saying so; the same list changes nothing', () => {
    const copied = sent({ cc: ['legal@example.com'] });
    const { request, events } = right(changeSettings(copied, { cc: ['ops@example.com'] }, AT, MAX));
    assert.deepEqual(request.cc, ['ops@example.com']);
    assert.deepEqual(events, [{ type: 'request.updated', changed: ['cc'] }]);
    assert.deepEqual(right(changeSettings(copied, { cc: ['legal@example.com'] }, AT, MAX)), {
      request: copied,
      events: [],
    });
    assert.deepEqual(left(changeSettings(sent({ state: 'completed' }), { cc: [] }, AT, MAX)), {
      _tag: 'StateConflict',
      action: 'update',
      state: 'completed',
    });
  });
});

describe('requests domain: a draft’s message to its signers and e-mail subject (ADRs 3380, 3400)', () => {
  for (const text of ['message', 'subject'] as const) {
    it(`replaces or removes a draft’s ${text}, saying so; the same text changes nothing; a sent Request’s is fixed`, () => {
      const noted = sent({ state: 'draft', [text]: 'First' });
      const { request, events } = right(changeSettings(noted, { [text]: 'Second' }, AT, MAX));
      assert.equal(request[text], 'Second');
      assert.deepEqual(events, [{ type: 'request.updated', changed: [text] }]);
      assert.equal(right(changeSettings(noted, { [text]: null }, AT, MAX)).request[text], null);
      assert.deepEqual(right(changeSettings(noted, { [text]: 'First' }, AT, MAX)), {
        request: noted,
        events: [],
      });
      const none = sent({ state: 'draft' });
      assert.deepEqual(right(changeSettings(none, { [text]: null }, AT, MAX)), { request: none, events: [] });
      assert.deepEqual(left(changeSettings(sent({ [text]: 'Fixed' }), { [text]: 'Later' }, AT, MAX)), {
        _tag: 'StateConflict',
        action: `update_${text}`,
        state: 'sent',
      });
    });
  }
});

describe('requests domain: an open Request’s title (ADR 3390)', () => {
  it('replaces or removes a draft’s or a sent Request’s, saying so; the same text changes nothing; a closed one’s is refused', () => {
    const named = sent({ title: 'Lease' });
    const { request, events } = right(changeSettings(named, { title: 'Lease, signed copy' }, AT, MAX));
    assert.equal(request.title, 'Lease, signed copy');
    assert.deepEqual(events, [{ type: 'request.updated', changed: ['title'] }]);
    assert.equal(
      right(changeSettings(sent({ state: 'draft', title: 'x' }), { title: null }, AT, MAX)).request.title,
      null,
    );
    assert.deepEqual(right(changeSettings(named, { title: 'Lease' }, AT, MAX)), {
      request: named,
      events: [],
    });
    assert.deepEqual(
      left(changeSettings(sent({ state: 'completed', title: 'Lease' }), { title: 'Later' }, AT, MAX)),
      {
        _tag: 'StateConflict',
        action: 'update',
        state: 'completed',
      },
    );
  });
});
