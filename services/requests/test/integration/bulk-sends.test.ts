import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import { memoryRateLimiter } from '@esign/platform';
import { sql } from '@esign/platform/database';
import { costlySendAllowance } from '../../src/adapters/rate-limit/costly-send-allowance.js';
import { postgresBulkSendStore } from '../../src/adapters/postgres/postgres-bulk-send-store.js';
import { processBulkRows } from '../../src/application/bulk-send-worker.js';
import { createRequest } from '../../src/application/requests.js';
import { bulkSendWorker } from '../support/bulk-send-fixture.js';
import {
  countRows,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from '../support/harness.js';

/** Bulk send against real Postgres (issue #22, ADR 2201): the rows, the worker, a repeat after a crash. */
describe('requests service: bulk send (real Postgres)', function () {
  this.timeout(60_000);
  let h: Harness;
  let template: number;
  let headers: Record<string, string>;
  let process: (limit: number, leaseMs: number) => Promise<number>;
  let wakeUps = 0;

  before(async () => {
    h = await startHarness('bulk_sends', { bulkRowsWaiting: () => void wakeUps++ });
    template = await publishedTemplate(h.http);
    headers = await principal();
    process = bulkSendWorker(h);
  });
  after(async () => h?.close());

  const row = (i: number) => ({
    signers: [{ signer_id: `c-${i}`, signer: { email: `row-${i}@example.com` }, send_to: { email: true } }],
    render_data: { client_name: `Client ${i}` },
    fields: [{ name: 'full_name', assigned_to: `row-${i}@example.com` }],
  });

  const start = async (rows: unknown[], send = true) =>
    (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/bulk_sends`)
        .set(headers)
        .send({ contracts: [template], send, rows })
        .expect(202)
    ).body as { id: string; rows_total: number; failed: number };

  const progress = async (id: string) =>
    (await h.http.get(`/v1.1/bulk_sends/${id}`).set(headers).expect(200)).body as {
      state: string;
      created: number;
      sent: number;
      failed: number;
      failures: { row: number; request_id: string | null; errors: { path: string }[] }[];
      requests: { row: number; request_id: string }[];
    };

  const completedEvents = async (id: string) =>
    Number(
      await h.pool.oneFirst(
        sql.unsafe`SELECT count(*) FROM outbox WHERE type = 'bulk_send.completed' AND envelope->>'aggregate_id' = ${id}`,
      ),
    );

  it('refuses a bad shared part as a whole (422) and writes nothing', async () => {
    const before = await countRows(h.pool, 'bulk_sends');
    const answer = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/bulk_sends`)
      .set(headers)
      .send({ contracts: [999_999], rows: [row(0)] })
      .expect(422);
    assert.deepEqual(
      (answer.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['contracts[0]'],
    );
    const empty = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/bulk_sends`)
      .set(headers)
      .send({ contracts: [template], rows: [] })
      .expect(422);
    assert.deepEqual(
      (empty.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['rows'],
    );
    assert.equal(await countRows(h.pool, 'bulk_sends'), before);
  });

  it('makes and sends the valid rows, names the invalid ones, completes once with one event', async () => {
    const bulk = await start([
      { ...row(0), title: 'Renewal — Client 0' },
      { signers: [{ signer_id: '' }] },
      row(2),
      { ...row(3), render_data: { nope: 'x' } },
    ]);
    assert.equal(bulk.rows_total, 4);
    assert.equal(bulk.failed, 1, 'the row that does not decode fails at once');
    while ((await process(10, 15_000)) > 0);
    const done = await progress(bulk.id);
    assert.deepEqual([done.state, done.created, done.sent, done.failed], ['completed', 2, 2, 2]);
    assert.deepEqual(
      done.failures.map((f) => [f.row, f.errors.map((e) => e.path)]),
      [
        [1, ['rows[1].signers[0].signer_id']],
        [3, ['rows[3].render_data.nope']],
      ],
    );
    assert.deepEqual(
      done.requests.map((r) => r.row),
      [0, 2],
    );
    const titles = await Promise.all(
      done.requests.map(
        async (r) =>
          ((await h.http.get(`/v1.1/requests/${r.request_id}`).set(headers).expect(200)).body as RequestView)
            .title,
      ),
    );
    assert.deepEqual(titles, ['Renewal — Client 0', null], 'each row its own title (ADR 3390)');
    assert.equal(await completedEvents(bulk.id), 1);
    assert.equal(await process(10, 15_000), 0, 'nothing left');
    assert.equal(await completedEvents(bulk.id), 1, 'completed once');
  });

  it("a repeat after a crash replays a row's committed create instead of making a second Request", async () => {
    const bulk = await start([row(10), row(11)]);
    // The worker made row 0's Request and died before recording it: the create committed
    // under the row's key, the row is still pending.
    const stored = await h.pool.oneFirst(
      sql.unsafe`SELECT body FROM bulk_send_rows WHERE bulk_id = ${bulk.id} AND row_number = 0`,
    );
    const key = `bulk:${bulk.id}:0:create`;
    const first = await createRequest(h.deps)({
      caller: { sub: 'user-1', sites: [SITE_A] },
      siteId: SITE_A.id,
      body: stored as never,
      idempotency: { key, fingerprint: key },
    })();
    assert.ok(E.isRight(first) && !first.right.replayed);
    const madeId = (first.right.value as { id: string }).id;
    const requestsBefore = await countRows(h.pool, 'requests');

    while ((await process(10, 15_000)) > 0);
    const done = await progress(bulk.id);
    assert.deepEqual([done.created, done.sent, done.failed], [2, 2, 0]);
    assert.equal(done.requests[0]!.request_id, madeId, 'row 0 is the Request made before the crash');
    assert.equal(await countRows(h.pool, 'requests'), requestsBefore + 1, 'only row 1 made a new Request');
  });

  it("paces the rows' sends by the token's money-costing bucket: a spent bucket leaves rows pending", async () => {
    const pace = processBulkRows({
      ...h.deps,
      bulkSends: postgresBulkSendStore(h.pool),
      sendAllowance: costlySendAllowance(memoryRateLimiter({ now: () => Date.now(), maxBuckets: 10 }), {
        costly: { name: 'costly', quota: 1, windowSeconds: 3600 },
      }),
    });
    const paced = async (limit: number, leaseMs: number) => E.toUnion(await pace(limit, leaseMs)());
    const bulk = await start([row(30), row(31)]);
    assert.equal(await paced(10, 15_000), 1, 'one send in the bucket: one row settled');
    const waiting = await progress(bulk.id);
    assert.deepEqual([waiting.state, waiting.sent, waiting.created], ['running', 1, 1]);
    assert.equal(await paced(10, 15_000), 0, 'the other row waits, released until the bucket refills');
    const lease = await h.pool.oneFirst(
      sql.unsafe`SELECT lease_until > now() + interval '10 minutes' FROM bulk_send_rows
                 WHERE bulk_id = ${bulk.id} AND status = 'pending'`,
    );
    assert.equal(lease, true, 'held back for about the time the bucket needs (an hour here)');
  });

  it('wakes the worker once a bulk send with rows to make has committed, and only then', async () => {
    wakeUps = 0;
    await start([row(50)]);
    assert.equal(wakeUps, 1, 'a row to make');
    const invalid = await start([{ signers: [{ signer_id: '' }] }]);
    assert.equal(invalid.failed, 1);
    assert.equal(wakeUps, 1, 'every row failed: nothing for the worker');
    await h.http
      .post(`/v1.1/sites/${SITE_A.id}/bulk_sends`)
      .set(headers)
      .send({ contracts: [999_999], rows: [row(51)] })
      .expect(422);
    assert.equal(wakeUps, 1, 'refused: nothing committed');
    while ((await process(10, 15_000)) > 0);
  });

  it('with an Idempotency-Key: a repeat replays the first answer and starts nothing more', async () => {
    wakeUps = 0;
    const before = await countRows(h.pool, 'bulk_sends');
    const send = () =>
      h.http
        .post(`/v1.1/sites/${SITE_A.id}/bulk_sends`)
        .set({ ...headers, 'idempotency-key': 'bulk-once' })
        .send({ contracts: [template], rows: [row(40)] });
    const first = await send().expect(202);
    const again = await send().expect(202);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal((again.body as { id: string }).id, (first.body as { id: string }).id);
    assert.equal(again.headers.location, `/v1.1/bulk_sends/${(first.body as { id: string }).id}`);
    assert.equal(await countRows(h.pool, 'bulk_sends'), before + 1);
    assert.equal(wakeUps, 1, 'the replay wakes no one');
  });

  it('hides another site’s bulk send exactly like a missing one', async () => {
    const bulk = await start([row(20)], false);
    await h.http
      .get(`/v1.1/bulk_sends/${bulk.id}`)
      .set(await principal([{ id: 999, name: 'Other' }]))
      .expect(404);
    await h.http.get('/v1.1/bulk_sends/not-a-uuid').set(headers).expect(404);
  });
});
