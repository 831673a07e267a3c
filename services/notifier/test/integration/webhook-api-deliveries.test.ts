import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import type { DatabasePool } from '@esign/platform/database';
import { WebhookAttemptView, WebhookDeliveryList } from '@esign/contracts';
import { postgresWebhookDeliveryStore } from '../../src/adapters/postgres/postgres-webhook-delivery-store.js';
import { decoded, fieldErrors, testSealer } from '../support/webhooks.js';
import { SITE, valid, webhookApiFixture } from '../support/webhook-api-fixture.js';

describe('webhook API: /v1.1/sites/:id/webhooks (an endpoint’s deliveries)', function () {
  const { ctx, call, asCaller, create } = webhookApiFixture('webhook_api_deliveries');
  let pool: DatabasePool;
  before(() => {
    ({ pool } = ctx);
  });

  it('lists deliveries with status, attempts, response status and excerpt, and one with its attempts', async () => {
    const { body: created } = await create({ ...valid, event_types: ['request.signed'] }, 8);
    const store = postgresWebhookDeliveryStore(pool, {
      inboxConsumer: 'notifier-webhooks',
      sealer: testSealer,
    });
    const eventId = randomUUID();
    await store.fanOut(
      {
        id: eventId,
        type: 'request.signed',
        occurred_at: new Date().toISOString(),
        site_id: 8,
        aggregate_id: 'rq',
        data: {},
      },
      '{}',
    )();
    const [claimed] = await TE.toUnion(store.claimDue(100, 60_000))();
    assert.ok(claimed !== undefined);
    const now = new Date();
    await store.recordAttempt({
      delivery: claimed,
      result: { _tag: 'Response', status: 503, excerpt: 'upstream down', durationMs: 12 },
      step: { _tag: 'Retry', at: new Date(now.getTime() + 60_000), error: 'HTTP 503' },
      startedAt: now,
      finishedAt: now,
      health: () => ({ failingSince: now, disable: false }),
    })();
    const base = `/v1.1/sites/8/webhooks/${created.id}/deliveries`;
    const list = await asCaller(call().get(base));
    assert.equal(list.status, 200);
    const page = decoded(WebhookDeliveryList, list.body);
    assert.equal(page.total_count, 1);
    const d = page.data[0]!;
    assert.equal(d.event_id, eventId);
    assert.equal(d.event_type, 'request.signed');
    assert.equal(d.status, 'pending');
    assert.equal(d.attempts, 1);
    assert.equal(d.response_status, 503);
    assert.equal(d.response_excerpt, 'upstream down');
    assert.equal(d.error, 'HTTP 503');
    assert.ok(d.next_attempt_at !== null);
    assert.equal((await asCaller(call().get(`${base}?status=delivered`))).body.total_count, 0);
    const badQuery = await asCaller(call().get(`${base}?status=lost&per_page=1000&sort=x`));
    assert.equal(badQuery.status, 400);
    assert.deepEqual(
      fieldErrors(badQuery.body)
        .map((e) => e.path)
        .sort(),
      ['per_page', 'sort', 'status'],
    );

    const one = await asCaller(call().get(`${base}/${d.id}`));
    assert.equal(one.status, 200);
    const history = decoded(
      t.type({ attempt_history: t.array(WebhookAttemptView) }),
      one.body,
    ).attempt_history;
    assert.deepEqual(
      history.map((a) => [a.attempt, a.outcome, a.response_status, a.duration_ms]),
      [[1, 'retry', 503, 12]],
    );
    const endpoint = await asCaller(call().get(`/v1.1/sites/8/webhooks/${created.id}`));
    assert.ok(endpoint.body.failing_since !== null);
    assert.equal(
      (await asCaller(call().get(`/v1.1/sites/${SITE}/webhooks/${created.id}/deliveries`))).status,
      404,
    );
  });
});
