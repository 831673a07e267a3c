import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { db, sql } from '@esign/platform/database';
import type { RequestView } from '@esign/contracts';
import { eventually } from '@esign/testing';
import { useCases } from '../../src/application/use-cases.js';
import { lifecycleFixture } from '../support/lifecycle-fixture.js';
import { indexedScans } from '../support/query-plans.js';

const DAY = 86_400_000;

describe('requests service: automatic reminders (real Postgres and RabbitMQ, ADR 3130)', function () {
  this.timeout(60_000);
  const { ctx, create, post, outboxRows } = lifecycleFixture('automatic-reminders');

  const stored = (id: string) =>
    db.one(
      ctx.h.pool,
      t.type({
        reminder_interval_days: t.union([t.number, t.null]),
        next_reminder_at: t.union([t.string, t.null]),
      }),
      sql.unsafe`SELECT reminder_interval_days, next_reminder_at FROM requests WHERE id = ${id}`,
    );

  it('refuses an interval outside 1 to 30 with the field path, and keeps a valid one', async () => {
    for (const value of [0, 31, 1.5, '3']) {
      const refused = await ctx.h.http
        .post('/v1.1/sites/101/requests')
        .set(ctx.headers)
        .send({
          contracts: [ctx.template],
          signers: [{ signer_id: 'alice@example.com' }],
          reminder_interval_days: value,
        })
        .expect(422);
      assert.deepEqual(
        (refused.body as { errors: { path: string }[] }).errors.map((e) => e.path),
        ['reminder_interval_days'],
        String(value),
      );
    }
    const view = await create({ reminder_interval_days: 30 });
    assert.equal(view.reminder_interval_days, 30);
    assert.equal(view.next_reminder_at, null);
    assert.deepEqual(await stored(view.id), { reminder_interval_days: 30, next_reminder_at: null });
    const none = await create({ reminder_interval_days: null });
    assert.equal(none.reminder_interval_days, null);
  });

  it('reminds a due Request exactly once across two concurrent sweeps, leaves one not due alone', async () => {
    const due = await create({ reminder_interval_days: 1 });
    const notDue = await create({ reminder_interval_days: 3 });
    const sent = (await post(due.id, 'send').expect(200)).body as RequestView;
    await post(notDue.id, 'send').expect(200);
    const sentAt = Date.parse(sent.sent_at!);
    assert.equal(Date.parse(sent.next_reminder_at!), sentAt + DAY);
    assert.equal(
      Date.parse((await stored(due.id)).next_reminder_at!),
      sentAt + DAY,
      'stored as the view says',
    );

    ctx.h.clock.advance(DAY);
    const cases = useCases(ctx.h.deps);
    // Two replicas' sweeps at once: SKIP LOCKED lets one take the Request, the other passes it by.
    const [a, b] = await Promise.all([cases.remindDueRequests(100)(), cases.remindDueRequests(100)()]);
    assert.ok(E.isRight(a) && E.isRight(b));
    assert.equal(a.right + b.right, 1, 'settled once');
    assert.deepEqual(await cases.remindDueRequests(100)(), E.right(0), 'nothing due any more');

    const rows = await outboxRows(due.id);
    assert.deepEqual(
      rows.map((r) => r.type),
      ['request.created', 'request.sent', 'request.reminded'],
    );
    const read = (await ctx.h.http.get(`/v1.1/requests/${due.id}`).set(ctx.headers).expect(200))
      .body as RequestView;
    assert.equal(read.remind_count, 1);
    assert.equal(Date.parse(read.last_reminded_at!), sentAt + DAY);
    assert.equal(Date.parse(read.next_reminder_at!), sentAt + 2 * DAY, 'the next one is set');
    const [event] = await eventually(() =>
      Promise.resolve(
        ctx.sink.of('request.reminded', due.id).length > 0
          ? ctx.sink.of('request.reminded', due.id)
          : undefined,
      ),
    );
    const data = event!.data as { automatic?: boolean; last_day?: boolean; signers: { signer_id: string }[] };
    assert.equal(data.automatic, true);
    assert.equal(data.last_day, undefined, 'no expiry, no last day');
    assert.deepEqual(
      data.signers.map((s) => s.signer_id),
      ['alice@example.com', 'bob'],
      'the signers a manual reminder tells: carol has no channel',
    );

    const untouched = (await ctx.h.http.get(`/v1.1/requests/${notDue.id}`).set(ctx.headers).expect(200))
      .body as RequestView;
    assert.equal(untouched.remind_count, 0);
    assert.equal(Date.parse(untouched.next_reminder_at!), Date.parse(untouched.sent_at!) + 3 * DAY);
    assert.deepEqual(
      (await outboxRows(notDue.id)).map((r) => r.type),
      ['request.created', 'request.sent'],
    );
  });

  it('warns once a day before the expiry, when the interval’s next would come later (ADR 3470)', async () => {
    const expiresAt = new Date(ctx.h.clock.clock.now().getTime() + 3 * DAY).toISOString();
    const view = await create({ reminder_interval_days: 7, expires_at: expiresAt });
    const sent = (await post(view.id, 'send').expect(200)).body as RequestView;
    const warning = Date.parse(expiresAt) - DAY;
    assert.equal(Date.parse(sent.next_reminder_at!), warning);
    assert.equal(Date.parse((await stored(view.id)).next_reminder_at!), warning, 'stored as the view says');

    ctx.h.clock.advance(2 * DAY);
    const cases = useCases(ctx.h.deps);
    // The earlier tests' Requests fall due too; this one is settled among them.
    const settled = await cases.remindDueRequests(100)();
    assert.ok(E.isRight(settled) && settled.right >= 1);
    const read = (await ctx.h.http.get(`/v1.1/requests/${view.id}`).set(ctx.headers).expect(200))
      .body as RequestView;
    assert.deepEqual(
      [read.remind_count, read.next_reminder_at],
      [1, null],
      'once: nothing more before it expires',
    );
    assert.deepEqual(
      (await outboxRows(view.id)).map((r) => r.type),
      ['request.created', 'request.sent', 'request.reminded'],
    );
    const [warned] = await eventually(() =>
      Promise.resolve(
        ctx.sink.of('request.reminded', view.id).length > 0
          ? ctx.sink.of('request.reminded', view.id)
          : undefined,
      ),
    );
    const data = warned!.data as { automatic?: boolean; last_day?: boolean };
    assert.deepEqual([data.automatic, data.last_day], [true, true], 'published as the last day’s');
  });

  it('clears the schedule when the Request is cancelled', async () => {
    const view = await create({ reminder_interval_days: 2 });
    await post(view.id, 'send').expect(200);
    const cancelled = (await post(view.id, 'cancel').expect(200)).body as RequestView;
    assert.equal(cancelled.next_reminder_at, null);
    assert.equal((await stored(view.id)).next_reminder_at, null);
  });

  it('finds due Requests through the partial index requests_reminder_due', async () => {
    ctx.h.statements.length = 0;
    await useCases(ctx.h.deps).remindDueRequests(100)();
    const lock = ctx.h.statements.find((st) => /next_reminder_at <=/.test(st.sql));
    assert.ok(lock, 'the sweep ran its locking statement');
    const plan = await indexedScans(
      ctx.h,
      sql.unsafe`SELECT id FROM requests
        WHERE state = 'sent' AND next_reminder_at IS NOT NULL AND next_reminder_at <= now()
        ORDER BY next_reminder_at LIMIT 100 FOR UPDATE SKIP LOCKED`,
    );
    assert.deepEqual(plan, ['Index Scan on requests_reminder_due']);
  });
});
