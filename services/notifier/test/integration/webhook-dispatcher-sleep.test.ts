import assert from 'node:assert/strict';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import { db, sql } from '@esign/platform/database';
import { eventually, testLogger } from '@esign/testing';
import { startWebhookDispatcher } from '../../src/adapters/scheduler/webhook-dispatcher.js';
import { webhookDeliveryFixture } from '../support/webhook-delivery-fixture.js';

/**
 * The dispatcher sleeps until the next delivery or alert falls due (ADR 2900), read from
 * real Postgres: a retry is sent when it is due, with nothing to wake the loop and both
 * of its intervals a minute long.
 */
describe('webhook deliveries: the dispatcher wakes when the next one falls due (ADR 2900)', function () {
  const { ctx, register, event, fanOut, dispatcher, deliveries } =
    webhookDeliveryFixture('webhook_dispatcher_sleep');
  const nextDue = () => TE.toUnion(deliveries().nextDueInMs())();
  const Due = t.type({ due: t.string });

  it('reads when the next delivery or alert falls due, the lease of a claimed one included', async () => {
    assert.equal(await nextDue(), null, 'nothing pending');
    const endpoint = await register({ url: ctx.receiver.url('/due'), eventTypes: ['request.completed'] });
    await fanOut(event(endpoint.siteId));
    const now = await nextDue();
    assert.ok(now !== null && now <= 0, `a new delivery is due at once (${now})`);

    const between = async (low: number, high: number) => {
      const due = await nextDue();
      assert.ok(due !== null && due > low && due <= high, `due in ${due} ms, expected (${low}, ${high}]`);
    };
    await ctx.pool.query(sql.unsafe`
      UPDATE webhook_deliveries SET next_attempt_at = now() + interval '5 seconds'
      WHERE endpoint_id = ${endpoint.id}`);
    await between(3_000, 5_000);
    await ctx.pool.query(sql.unsafe`
      INSERT INTO webhook_alerts (id, endpoint_id, site_id, recipient, facts, status, next_attempt_at)
      VALUES (gen_random_uuid(), ${endpoint.id}, ${endpoint.siteId}, 'ops@acme.example', '{}'::jsonb,
              'pending', now() + interval '2 seconds')`);
    await between(0, 2_000);
    await ctx.pool.query(sql.unsafe`
      UPDATE webhook_alerts SET status = 'sent', next_attempt_at = NULL, settled_at = now()`);
    await between(2_000, 5_000);
    // A claimed delivery falls due again when its lease runs out (its worker died).
    await ctx.pool.query(sql.unsafe`
      UPDATE webhook_deliveries SET status = 'sending', next_attempt_at = now() + interval '3 seconds'
      WHERE endpoint_id = ${endpoint.id}`);
    await between(1_000, 3_000);
    await ctx.pool.query(sql.unsafe`
      UPDATE webhook_deliveries SET status = 'delivered', next_attempt_at = NULL, settled_at = now()
      WHERE endpoint_id = ${endpoint.id}`);
    assert.equal(await nextDue(), null, 'settled rows are not pending');
  });

  it('sends a retry when it falls due, though nothing wakes the loop and its intervals are a minute', async () => {
    const endpoint = await register({ url: ctx.receiver.url('/retry'), eventTypes: ['request.completed'] });
    await fanOut(event(endpoint.siteId));
    const { due } = await db.one(
      ctx.pool,
      Due,
      sql.unsafe`
        UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1.5 seconds'
        WHERE endpoint_id = ${endpoint.id} RETURNING next_attempt_at::text AS due`,
    );
    const round = dispatcher();
    const loop = startWebhookDispatcher({
      rounds: [{ name: 'deliveries', run: () => round().then(() => false) }],
      nextDueInMs: nextDue,
      pollIntervalMs: 60_000,
      idlePollIntervalMs: 60_000,
      logger: testLogger('webhook-dispatcher-sleep'),
    });
    try {
      await eventually(
        () => Promise.resolve(ctx.receiver.on('/retry').length > 0 ? true : undefined),
        20_000,
      );
    } finally {
      await loop.stop();
    }
    const attempt = await db.one(
      ctx.pool,
      t.type({ on_time: t.boolean }),
      sql.unsafe`
        SELECT a.started_at >= ${due}::timestamptz AS on_time
        FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.endpoint_id = ${endpoint.id}`,
    );
    assert.equal(attempt.on_time, true, 'not sent before it was due');
  });
});
