import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import type { RequestEventList } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { postgresRequestRepository } from '../../src/adapters/postgres/postgres-request-repository.js';
import { executionUrl } from '../../src/application/deps.js';
import { envelopes } from '../../src/application/events.js';
import { cancel } from '../../src/domain/signature-request.js';
import { signsAs } from '../support/executed-documents-fixture.js';
import { principal, SITE_A, SITE_B } from '../support/harness.js';
import { historyFixture } from '../support/history-fixture.js';

/**
 * ADR 3170 against real Postgres: a Request's history is every event of it a webhook can
 * carry, as the webhook carries it (the outbox's own ids, no Execution URLs), written by
 * the statement that stores the change, whichever path writes it (a transition, a
 * signer's first view), and nothing of a change that was not stored.
 */
describe('requests service: a Request’s history (real Postgres)', function () {
  this.timeout(60_000);
  const { ctx, create } = historyFixture('request-history');

  const history = async (id: string, query = ''): Promise<RequestEventList> =>
    (await ctx.h.http.get(`/v1.1/requests/${id}/events${query}`).set(ctx.headers).expect(200))
      .body as RequestEventList;

  /** The outbox's events of the Request that a client can see, in the order written. */
  const outboxEvents = async (id: string) =>
    (
      await db.any(
        ctx.h.pool,
        t.type({ id: t.string, type: t.string }),
        sql.unsafe`SELECT envelope->>'id' AS id, type FROM outbox
                   WHERE envelope->>'aggregate_id' = ${id} ORDER BY seq`,
      )
    ).filter((e) => e.type.startsWith('request.') && e.type !== 'request.created');

  it('keeps every event a webhook carries, with the outbox’s ids, oldest first, no Execution URL', async () => {
    const view = await create();
    assert.deepEqual((await history(view.id)).data, [], 'a draft never changed has none');
    await ctx.h.http.post(`/v1.1/requests/${view.id}/send`).set(ctx.headers).expect(200);
    await signsAs(ctx.h, view.signers[0]!.request_url, 'Ada Lovelace');
    const page = await history(view.id);
    assert.deepEqual(
      page.data.map((e) => e.type),
      ['request.sent', 'request.viewed', 'request.signed', 'request.completed'],
    );
    assert.deepEqual(
      page.data.map((e) => ({ id: e.id, type: e.type })),
      await outboxEvents(view.id),
    );
    assert.deepEqual(
      { total: page.total_count, more: page.has_more, site: [...new Set(page.data.map((e) => e.site_id))] },
      { total: 4, more: false, site: [SITE_A.id] },
    );
    const text = JSON.stringify(page);
    assert.ok(!text.includes('request_url') && !text.includes('/sign?'), 'no Execution URL in the history');
    const sent = page.data[0]!;
    assert.equal(sent.data.request_id, view.id);
    assert.ok(Date.parse(sent.created_at) <= Date.parse(page.data[3]!.created_at));
  });

  it('keeps a cancel’s event after the send’s, and pages like every list', async () => {
    const view = await create(true);
    await ctx.h.http.post(`/v1.1/requests/${view.id}/cancel`).set(ctx.headers).expect(200);
    const all = await history(view.id);
    assert.deepEqual(
      all.data.map((e) => e.type),
      ['request.sent', 'request.cancelled'],
    );
    const second = await history(view.id, '?page=2&per_page=1');
    assert.deepEqual(
      { ...second, data: second.data.map((e) => e.id) },
      { page: 2, per_page: 1, count: 1, total_count: 2, has_more: false, data: [all.data[1]!.id] },
    );
    // Newest first: the first page holds the latest, and the pages walk back.
    const latest = await history(view.id, '?order=desc&per_page=1');
    assert.deepEqual(
      { ...latest, data: latest.data.map((e) => e.id) },
      { page: 1, per_page: 1, count: 1, total_count: 2, has_more: true, data: [all.data[1]!.id] },
    );
    assert.deepEqual((await history(view.id, '?order=desc')).data, [...all.data].reverse());
    assert.deepEqual((await history(view.id, '?order=asc')).data, all.data);
    // Of some types only, counted alone (ADR 3540), comma-separated or repeated.
    const cancels = await history(view.id, '?type=request.cancelled');
    assert.deepEqual(
      { total: cancels.total_count, ids: cancels.data.map((e) => e.id) },
      { total: 1, ids: [all.data[1]!.id] },
    );
    for (const query of ['?type=request.cancelled,request.sent', '?type=request.sent&type=request.cancelled'])
      assert.deepEqual((await history(view.id, query)).data, all.data, query);
    assert.deepEqual((await history(view.id, '?type=request.signed')).data, []);
  });

  it('answers 404 for a Request of another Site, and names a parameter it does not take or a value it does not know', async () => {
    const view = await create(true);
    const other = await ctx.h.http
      .get(`/v1.1/requests/${view.id}/events`)
      .set(await principal([SITE_B]))
      .expect(404);
    assert.match(other.headers['content-type'] ?? '', /application\/problem\+json/);
    await ctx.h.http.get('/v1.1/requests/not-a-uuid/events').set(ctx.headers).expect(404);
    const bad = await ctx.h.http
      .get(`/v1.1/requests/${view.id}/events?per_page=101&state=sent`)
      .set(ctx.headers)
      .expect(400);
    assert.deepEqual(bad.body.errors, [
      { path: 'state', message: 'unknown parameter' },
      { path: 'per_page', message: 'must be an integer from 1 to 100' },
    ]);
    const order = await ctx.h.http
      .get(`/v1.1/requests/${view.id}/events?order=newest`)
      .set(ctx.headers)
      .expect(400);
    assert.deepEqual(order.body.errors, [{ path: 'order', message: 'must be "asc" or "desc"' }]);
    const type = await ctx.h.http
      .get(`/v1.1/requests/${view.id}/events?type=request.sent,request.teleported`)
      .set(ctx.headers)
      .expect(400);
    assert.deepEqual(
      (type.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['type'],
    );
  });

  it('keeps nothing of a transition that was not stored (ADR 2800)', async () => {
    const view = await create(true);
    const requests = postgresRequestRepository(ctx.h.pool);
    const read = async () => {
      const found = await requests.find(view.id, [SITE_A.id])();
      assert.ok(E.isRight(found) && O.isSome(found.right));
      return found.right.value;
    };
    const cancelOf = (previous: Awaited<ReturnType<typeof read>>) => {
      const decided = cancel(previous, new Date().toISOString());
      assert.ok(E.isRight(decided));
      const events = envelopes(
        { ids: ctx.h.deps.ids, executionUrl: executionUrl(ctx.h.deps) },
        decided.right.request,
        decided.right.events,
      );
      return { request: decided.right.request, events };
    };
    const stale = await read();
    // A change stored since the read: a write decided on that read is refused.
    await ctx.h.http
      .patch(`/v1.1/requests/${view.id}`)
      .set(ctx.headers)
      .send({ reminder_interval_days: 7 })
      .expect(200);
    const before = await history(view.id);
    const refused = cancelOf(stale);
    assert.deepEqual(
      await requests.updateIfCurrent(stale, refused.request, refused.events)(),
      E.right(false),
    );
    assert.deepEqual(await history(view.id), before);
    const current = await read();
    const stored = cancelOf(current);
    assert.deepEqual(await requests.updateIfCurrent(current, stored.request, stored.events)(), E.right(true));
    const after = await history(view.id);
    assert.deepEqual(after.data.map((e) => e.type).slice(-1), ['request.cancelled']);
    assert.equal(after.total_count, before.total_count + 1);
    assert.equal(after.data.at(-1)!.id, stored.events[0]!.id);
  });
});
