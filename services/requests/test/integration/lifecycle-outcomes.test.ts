import assert from 'node:assert/strict';
import amqplib from 'amqplib';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { type RequestView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import { eventually, infra } from '@esign/testing';
import { postgresRequestRepository } from '../../src/adapters/postgres/postgres-request-repository.js';
import { useCases } from '../../src/application/use-cases.js';
import { deliveryReport } from '../support/builders.js';
import { lifecycleFixture } from '../support/lifecycle-fixture.js';

describe('requests service lifecycle, the notifier’s outcomes, and the statements a send and a report take (real Postgres and RabbitMQ)', function () {
  this.timeout(60_000);
  const { ctx, create, post } = lifecycleFixture('lifecycle-outcomes');

  const publish = async (event: unknown, routingKey: string) => {
    const connection = await amqplib.connect(infra().amqpUrl);
    const channel = await connection.createConfirmChannel();
    channel.publish(ctx.names.events, routingKey, Buffer.from(JSON.stringify(event)), { persistent: true });
    await channel.waitForConfirms();
    await connection.close();
  };
  const outcome = (
    view: RequestView,
    type: 'notification.delivered' | 'notification.failed',
    signer: number,
    channel: 'email' | 'sms',
    at: string,
    extra = {},
  ) => deliveryReport(view, { type, signer, channel, at, extra });
  const statuses = async (id: string) =>
    (
      (await ctx.h.http.get(`/v1.1/requests/${id}`).set(ctx.headers).expect(200)).body as RequestView
    ).signers.map((s) => s.notifications);

  it('MEDIUM 6: shows quota_exceeded, not a bare failure, for a message the notifier refused over a daily quota', async () => {
    const view = await create();
    await post(view.id, 'send').expect(200);
    const refused = outcome(view, 'notification.failed', 0, 'email', '2030-01-01T00:00:10.000Z', {
      error: "not sent: this Site's daily quota of 2 e-mails is used up; room for another within 12 hours",
      reason: 'quota_exceeded',
    });
    await publish(refused, refused.type);
    const status = await eventually(async () => {
      const s = await statuses(view.id);
      return s[0]!.email === 'pending' ? undefined : s[0]!.email;
    });
    assert.equal(status, 'quota_exceeded');
  });

  it("shows each signer's e-mail and SMS status as the notifier reports it, once per event, latest first", async () => {
    const view = await create();
    await post(view.id, 'send').expect(200);
    const delivered = outcome(view, 'notification.delivered', 0, 'email', '2030-01-01T00:00:10.000Z');
    await publish(delivered, delivered.type);
    const failed = outcome(view, 'notification.failed', 1, 'sms', '2030-01-01T00:00:10.000Z', {
      error: 'unreachable',
    });
    await publish(failed, failed.type);
    await eventually(async () => {
      const s = await statuses(view.id);
      return s[0]!.email === 'delivered' && s[1]!.sms === 'failed' ? true : undefined;
    });
    // A redelivery of the same event and a late, older report change nothing.
    await publish(delivered, delivered.type);
    const older = outcome(view, 'notification.failed', 0, 'email', '2030-01-01T00:00:05.000Z');
    await publish(older, older.type);
    await eventually(async () => {
      const n = await ctx.h.pool.oneFirst(
        sql.unsafe`SELECT count(*) FROM inbox WHERE event_id = ${older.id}`,
      );
      return Number(n) === 1 ? true : undefined;
    });
    assert.deepEqual(await statuses(view.id), [
      { email: 'delivered', sms: 'not_requested' },
      { email: 'no_address', sms: 'failed' },
      { email: 'not_requested', sms: 'not_requested' },
    ]);
    assert.equal(
      Number(
        await ctx.h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM inbox WHERE event_id = ${delivered.id}`),
      ),
      1,
    );
  });

  it('leaves out a late report about a number the sender has since corrected (ADR 3140)', async () => {
    const view = await create();
    await post(view.id, 'send').expect(200);
    await ctx.h.http
      .patch(`/v1.1/requests/${view.id}/signers/bob`)
      .set(ctx.headers)
      .send({ signer: { mobile_number: '5552002222' }, notify: false })
      .expect(200);
    const claimed = (id: string) =>
      eventually(async () => {
        const n = await ctx.h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM inbox WHERE event_id = ${id}`);
        return Number(n) === 1 ? true : undefined;
      });
    const stale = outcome(view, 'notification.failed', 1, 'sms', '2030-01-01T00:00:10.000Z', {
      error: 'unreachable',
      to: '15552001111',
    });
    await publish(stale, stale.type);
    await claimed(stale.id);
    assert.equal((await statuses(view.id))[1]!.sms, 'pending', 'the old number’s failure is not theirs');
    const current = outcome(view, 'notification.delivered', 1, 'sms', '2030-01-01T00:00:11.000Z', {
      to: '15552002222',
    });
    await publish(current, current.type);
    await claimed(current.id);
    assert.equal((await statuses(view.id))[1]!.sms, 'delivered');
  });

  it('leaves out a report about a signer since replaced in the place, though at the same number (ADR 3550)', async () => {
    const view = await create();
    await post(view.id, 'send').expect(200);
    await ctx.h.http
      .post(`/v1.1/requests/${view.id}/signers/bob/replace`)
      .set(ctx.headers)
      .send({ signer_id: 'bob-deputy', signer: { mobile_number: '5552001111' }, notify: false })
      .expect(200);
    const claimed = (id: string) =>
      eventually(async () => {
        const n = await ctx.h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM inbox WHERE event_id = ${id}`);
        return Number(n) === 1 ? true : undefined;
      });
    const about = (signerId: string, at: string) =>
      outcome(view, 'notification.delivered', 1, 'sms', at, { signer_id: signerId, to: '15552001111' });
    const bobs = about('bob', '2030-01-01T00:00:10.000Z');
    await publish(bobs, bobs.type);
    await claimed(bobs.id);
    assert.equal((await statuses(view.id))[1]!.sms, 'pending', 'Bob’s message is not his deputy’s');
    const deputys = about('bob-deputy', '2030-01-01T00:00:11.000Z');
    await publish(deputys, deputys.type);
    await claimed(deputys.id);
    assert.equal((await statuses(view.id))[1]!.sms, 'delivered');
  });

  it('keeps a report that lands between another change loading the signer and writing it (ADR 2650)', async () => {
    const view = await create();
    await post(view.id, 'send').expect(200);
    const requests = postgresRequestRepository(ctx.h.pool);
    const loaded = await requests.findByVerifiedId(view.id)();
    assert.ok(E.isRight(loaded) && O.isSome(loaded.right));
    const previous = loaded.right.value;
    // The report needs no lock on the Request, so it can land while a change of the
    // same signer that read the Request before it is still in flight…
    const delivered = outcome(view, 'notification.delivered', 0, 'email', '2030-01-01T00:00:10.000Z');
    assert.deepEqual(await useCases(ctx.h.deps).recordNotificationOutcome(delivered)(), E.right('applied'));
    const changed = previous.signers.map((signer, i) =>
      i === 0
        ? { ...signer, link: { version: signer.link.version + 1, issuedAt: '2030-01-01T00:00:11.000Z' } }
        : signer,
    );
    // …whose write, from its older copy, leaves the status the report set.
    await requests.update(previous, { ...previous, signers: changed }, [])();
    assert.deepEqual((await statuses(view.id))[0], { email: 'delivered', sms: 'not_requested' });
  });

  it('leaves the later report by occurrence when two on one channel race (ADR 2650)', async () => {
    const view = await create();
    await post(view.id, 'send').expect(200);
    const reports = Array.from({ length: 8 }, (_, i) =>
      outcome(view, 'notification.failed', 0, 'email', `2030-01-01T00:00:1${i}.000Z`),
    );
    const results = await Promise.all(
      reports.map((r) => useCases(ctx.h.deps).recordNotificationOutcome(r)()),
    );
    assert.ok(results.every((r) => E.isRight(r) && r.right === 'applied'));
    const stored = await ctx.h.pool.oneFirst(
      sql.unsafe`SELECT email_delivery->>'event_id' FROM request_signers WHERE request_id = ${view.id} AND signer_ref = ${view.signers[0]!.signer_ref}`,
    );
    assert.equal(stored, reports[7]!.id);
  });

  it('tells the client of a failure in the report’s one statement, only when it becomes the signer’s status (ADR 3180)', async () => {
    const view = await create();
    await post(view.id, 'send').expect(200);
    const told = async () =>
      (
        await ctx.h.pool.any(
          sql.unsafe`SELECT envelope FROM outbox WHERE type = 'request.delivery_failed'
                     AND envelope->>'aggregate_id' = ${view.id} ORDER BY envelope->>'occurred_at'`,
        )
      ).map((r) => r.envelope as { id: string; data: Record<string, unknown> });
    const history = async () =>
      (await ctx.h.http.get(`/v1.1/requests/${view.id}/events`).set(ctx.headers).expect(200)).body as {
        data: { id: string; type: string; data: unknown }[];
      };
    const failed = outcome(view, 'notification.failed', 1, 'sms', '2030-01-01T00:00:10.000Z', {
      error: 'Twilio 400 error 21211: not a valid phone number',
      to: '15552001111',
      permanent: true,
    });
    ctx.h.statements.length = 0;
    assert.deepEqual(await useCases(ctx.h.deps).recordNotificationOutcome(failed)(), E.right('applied'));
    const claim = ctx.h.statements.find((st) => /INSERT INTO inbox/.test(st.sql))!;
    assert.match(
      claim.sql,
      /UPDATE request_signers[\s\S]*INSERT INTO outbox[\s\S]*INSERT INTO request_events/,
    );
    assert.equal(ctx.h.statements.filter((st) => st.connectionId === claim.connectionId).length, 1);
    const [event, ...more] = await told();
    assert.deepEqual(more, []);
    assert.deepEqual(event!.data, {
      request_id: view.id,
      signer_id: 'bob',
      signer_ref: view.signers[1]!.signer_ref,
      channel: 'sms',
      status: 'failed',
      error: 'Twilio 400 error 21211: not a valid phone number',
      failed_at: '2030-01-01T00:00:10.000Z',
      to: '15552001111',
    });
    const kept = (await history()).data.filter((e) => e.type === 'request.delivery_failed');
    assert.deepEqual(
      kept.map((e) => [e.id, e.data]),
      [[event!.id, event!.data]],
    );
    // Nothing more for a redelivery, an older report, a delivery, or the old number.
    const older = outcome(view, 'notification.failed', 1, 'sms', '2030-01-01T00:00:05.000Z');
    const delivered = outcome(view, 'notification.delivered', 0, 'email', '2030-01-01T00:00:10.000Z');
    for (const report of [failed, older, delivered])
      assert.ok(E.isRight(await useCases(ctx.h.deps).recordNotificationOutcome(report)()));
    await ctx.h.http
      .patch(`/v1.1/requests/${view.id}/signers/bob`)
      .set(ctx.headers)
      .send({ signer: { mobile_number: '5552002222' }, notify: false })
      .expect(200);
    const stale = outcome(view, 'notification.failed', 1, 'sms', '2030-01-01T00:00:20.000Z', {
      to: '15552001111',
    });
    assert.deepEqual(await useCases(ctx.h.deps).recordNotificationOutcome(stale)(), E.right('applied'));
    assert.equal((await told()).length, 1);
    assert.equal((await history()).data.filter((e) => e.type === 'request.delivery_failed').length, 1);
  });

  it('sends in two statements outside a transaction, and records an outcome in one, writing the signer only (ADRs 2650, 2800)', async () => {
    const view = await create();
    ctx.h.statements.length = 0;
    await post(view.id, 'send').expect(200);
    const writeAt = ctx.h.statements.findIndex((st) => /UPDATE requests SET/.test(st.sql));
    const connection = ctx.h.statements[writeAt]!.connectionId;
    const sendStatements = ctx.h.statements
      .slice(0, writeAt + 1)
      .filter((st) => st.connectionId === connection);
    // Printed for the record (docs/benchmarks.md quotes it).
    console.log(`      send of 3 signers: ${sendStatements.length} statements, no transaction`);
    // The read, without a lock, and one write guarded by the version read (ADR 2800):
    // the Request's row first, the signers and the outbox only if it was written.
    assert.equal(sendStatements.length, 2, sendStatements.map((st) => st.sql).join('\n---\n'));
    assert.ok(
      sendStatements.every((st) => st.transactionId === null),
      'outside a transaction',
    );
    // Both prepared by name (ADR 2820): parsed once per connection, planned once when generic.
    assert.match(sendStatements[0]!.sql, /^\/\* prepared \*\/\s*SELECT\b[\s\S]*r\.version/);
    assert.doesNotMatch(sendStatements[0]!.sql, /FOR UPDATE/);
    assert.match(
      sendStatements[1]!.sql,
      /^\/\* prepared \*\/\s*WITH guard AS \(\s*UPDATE requests SET[\s\S]*WHERE id = \$\d+ AND version = \$\d+[\s\S]*UPDATE request_signers[\s\S]*EXISTS \(SELECT 1 FROM guard\)[\s\S]*INSERT INTO outbox[\s\S]*EXISTS \(SELECT 1 FROM guard\)/,
    );
    const xmin = () => ctx.h.pool.oneFirst(sql.unsafe`SELECT xmin::text FROM requests WHERE id = ${view.id}`);
    const before = await xmin();
    const delivered = outcome(view, 'notification.delivered', 0, 'email', '2030-01-01T00:00:10.000Z');
    ctx.h.statements.length = 0;
    const result = await useCases(ctx.h.deps).recordNotificationOutcome(delivered)();
    assert.deepEqual(result, E.right('applied'));
    assert.equal((await statuses(view.id))[0]!.email, 'delivered');
    assert.equal(await xmin(), before, 'the requests row was rewritten');
    // The outcome's own statement (the relay shares the pool): the inbox claim and the
    // signer's delivery status together, with no BEGIN, lock or read of the Request.
    const claim = ctx.h.statements.find((st) => /INSERT INTO inbox/.test(st.sql));
    assert.match(claim!.sql, /^\/\* prepared \*\/[\s\S]*UPDATE request_signers/);
    assert.equal(claim!.transactionId, null, 'outside a transaction');
    const outcomeStatements = ctx.h.statements.filter((st) => st.connectionId === claim!.connectionId);
    assert.equal(outcomeStatements.length, 1, outcomeStatements.map((st) => st.sql).join('\n---\n'));
    console.log(`      a delivery outcome: ${outcomeStatements.length} statement, no transaction`);
  });
});
