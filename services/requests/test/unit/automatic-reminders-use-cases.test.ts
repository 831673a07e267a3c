import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { DomainEvent } from '@esign/contracts';
import { fresh, later, NOW, right } from '../support/builders.js';
import { caller, memoryLifecycle } from '../support/memory-lifecycle.js';

const DAY = 86_400;

const setup = async () => {
  const lifecycle = await memoryLifecycle();
  const { cases } = lifecycle;
  const send = async (id: string) => fresh(right(await cases.sendRequest({ caller, requestId: id })()));
  const read = async (id: string) => right(await cases.getRequest({ caller, requestId: id })());
  return { ...lifecycle, send, read };
};

describe('requests use cases: automatic reminders (in-memory ports, ADR 3130)', () => {
  it('shows the interval, schedules at send, and the sweep reminds once it is due', async () => {
    const { cases, create, send, events, read, setNow } = await setup();
    const view = await create({ reminder_interval_days: 2 });
    assert.equal(view.reminder_interval_days, 2);
    assert.equal(view.next_reminder_at, null, 'a draft has none scheduled');
    const sent = await send(view.id);
    assert.equal(sent.next_reminder_at, later(NOW, 2 * DAY));

    setNow(later(NOW, 2 * DAY - 1));
    assert.deepEqual(await cases.remindDueRequests(10)(), E.right(0), 'not due yet');
    setNow(later(NOW, 2 * DAY));
    assert.deepEqual(await cases.remindDueRequests(10)(), E.right(1));
    assert.deepEqual(await cases.remindDueRequests(10)(), E.right(0), 'once');

    const after = await read(view.id);
    assert.equal(after.remind_count, 1);
    assert.equal(after.last_reminded_at, later(NOW, 2 * DAY));
    assert.equal(after.next_reminder_at, later(NOW, 4 * DAY));
    const reminded = events(view.id).filter((e) => e.type === 'request.reminded');
    assert.equal(reminded.length, 1);
    assert.ok(E.isRight(DomainEvent.decode(reminded[0])), 'the event decodes with the shared codec');
    const data = reminded[0]!.data as { automatic?: boolean; signers: { signer_id: string }[] };
    assert.equal(data.automatic, true);
    assert.deepEqual(
      data.signers.map((s) => s.signer_id),
      ['a@b.co'],
    );
  });

  it('a manual reminder pushes the next automatic one back and is not marked automatic', async () => {
    const { cases, create, send, events, setNow } = await setup();
    const view = await create({ reminder_interval_days: 1 });
    await send(view.id);
    setNow(later(NOW, 12 * 3600));
    const manual = fresh(right(await cases.remindRequest({ caller, requestId: view.id })()));
    assert.equal(manual.next_reminder_at, later(NOW, 36 * 3600));
    setNow(later(NOW, DAY));
    assert.deepEqual(await cases.remindDueRequests(10)(), E.right(0), 'the manual one pushed it back');
    const [event] = events(view.id).filter((e) => e.type === 'request.reminded');
    assert.equal((event!.data as { automatic?: boolean }).automatic, undefined);
  });

  it('stops at REMIND_MAX, and a cancelled Request gets no more', async () => {
    const { cases, create, send, read, setNow } = await setup();
    const view = await create({ reminder_interval_days: 1 });
    await send(view.id);
    for (let day = 1; day <= 3; day++) {
      setNow(later(NOW, day * DAY));
      assert.deepEqual(await cases.remindDueRequests(10)(), E.right(1), `day ${day}`);
    }
    const done = await read(view.id);
    assert.equal(done.remind_count, 3);
    assert.equal(done.next_reminder_at, null, 'the limit (3) is reached');

    const other = await create({ reminder_interval_days: 1 });
    await send(other.id);
    const cancelled = fresh(right(await cases.cancelRequest({ caller, requestId: other.id })()));
    assert.equal(cancelled.next_reminder_at, null);
    setNow(later(NOW, 30 * DAY));
    assert.deepEqual(await cases.remindDueRequests(10)(), E.right(0));
  });
});
