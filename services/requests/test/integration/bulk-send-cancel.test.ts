import assert from 'node:assert/strict';
import type { BulkSendView } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import { sql } from '@esign/platform/database';
import { postgresBulkSendStore } from '../../src/adapters/postgres/postgres-bulk-send-store.js';
import { bulkSendStarter, bulkSendWorker } from '../support/bulk-send-fixture.js';
import {
  countRows,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';

/**
 * ADR 3450 against real Postgres: a running bulk send is cancelled. Its pending rows are left
 * unmade; a row a worker holds at that moment is the worker's, made if it took it before
 * and left unmade if it takes it after (a paced row); it completes once none is held, and
 * `bulk_send.completed` says so.
 */
describe('requests service: a running bulk send cancelled (real Postgres)', function () {
  this.timeout(60_000);
  let h: Harness;
  let headers: Record<string, string>;
  let template: number;
  let process: () => Promise<number>;
  let start: (rows: readonly unknown[]) => Promise<BulkSendView>;
  let store: ReturnType<typeof postgresBulkSendStore>;

  before(async () => {
    h = await startHarness('bulk_send_cancel');
    headers = await principal([SITE_A]);
    template = await publishedTemplate(h.http);
    store = postgresBulkSendStore(h.pool);
    process = bulkSendWorker(h, store);
    const starter = bulkSendStarter(h, headers);
    start = (rows) => starter([template], rows);
  });
  after(async () => h?.close());

  const row = (i: number) => ({
    signers: [
      { signer_id: `c-${i}`, signer: { email: `cancel-${i}@example.com` }, send_to: { email: true } },
    ],
    render_data: { client_name: `Client ${i}`, start_date: '2031-01-01' },
    fields: ['full_name', 'agree', 'signature'].map((name) => ({ name, assigned_to: `c-${i}` })),
  });
  const cancel = (id: string, as = headers) => h.http.post(`/v1.1/bulk_sends/${id}/cancel`).set(as);
  const completed = async (id: string) =>
    (await h.pool.any(
      sql.unsafe`SELECT envelope->'data' AS data FROM outbox
                 WHERE type = 'bulk_send.completed' AND envelope->>'aggregate_id' = ${id}`,
    )) as readonly { data: Record<string, unknown> }[];
  const holdRows = async (id: string, rows: number[], leaseMs: number) =>
    h.pool.query(
      sql.unsafe`UPDATE bulk_send_rows SET lease_until = now() + ${leaseMs} * interval '1 millisecond'
                 WHERE bulk_id = ${id} AND row_number = ANY(${sql.array(rows, 'int4')})`,
    );

  it('leaves every pending row unmade and completes at once; cancelling again changes nothing', async () => {
    const bulk = await start([row(0), row(1), { signers: [] }]);
    const requests = await countRows(h.pool, 'requests');
    const cancelled = (await cancel(bulk.id).expect(200)).body as BulkSendView;
    assert.ok(cancelled.cancelled_at !== null);
    assert.deepEqual(
      [cancelled.state, cancelled.created, cancelled.sent, cancelled.failed, cancelled.cancelled],
      ['completed', 0, 0, 1, 2],
    );
    assert.equal(cancelled.completed_at, cancelled.cancelled_at);
    assert.equal(await process(), 0, 'nothing left for the worker');
    assert.equal(await countRows(h.pool, 'requests'), requests, 'no Request made');
    assert.deepEqual(
      (await completed(bulk.id)).map((e) => e.data),
      [
        {
          bulk_send_id: bulk.id,
          rows_total: 3,
          created: 0,
          sent: 0,
          failed: 1,
          cancelled: 2,
          cancelled_at: cancelled.cancelled_at,
        },
      ],
    );
    assert.deepEqual((await cancel(bulk.id).expect(200)).body, cancelled, 'the same answer again');
    assert.equal((await completed(bulk.id)).length, 1, 'completed once');
    const listed = (await h.http.get(`/v1.1/sites/${SITE_A.id}/bulk_sends`).set(headers).expect(200))
      .body as {
      data: { id: string; cancelled: number; cancelled_at: string | null }[];
    };
    assert.deepEqual(
      listed.data.filter((b) => b.id === bulk.id).map((b) => [b.cancelled, b.cancelled_at]),
      [[2, cancelled.cancelled_at]],
    );
  });

  it('lets a worker finish the row it holds, and leave unmade a paced row it takes after the cancel', async () => {
    const bulk = await start([row(10), row(11), row(12)]);
    // Row 0: a worker took it before the cancel and is making it; row 1: paced, given back.
    const [taken] = E.toUnion(await store.claim(1, 30_000)());
    assert.equal(taken?.row, 0);
    await holdRows(bulk.id, [1], 30_000);

    const cancelled = (await cancel(bulk.id).expect(200)).body as BulkSendView;
    assert.deepEqual([cancelled.state, cancelled.cancelled], ['running', 1], 'row 2 left unmade at once');

    // The worker that holds row 0 makes it, as it took it before the cancel.
    await store.settle(
      bulk.id,
      0,
      { status: 'created', requestId: null, errors: [] },
      cancelled.cancelled_at!,
    )();
    // Row 1's pacing ends; the worker takes it after the cancel and leaves it unmade.
    await holdRows(bulk.id, [1], -1);
    const requests = await countRows(h.pool, 'requests');
    assert.equal(await process(), 1);
    assert.equal(await countRows(h.pool, 'requests'), requests, 'row 1 made nothing');

    const done = (await h.http.get(`/v1.1/bulk_sends/${bulk.id}`).set(headers).expect(200))
      .body as BulkSendView;
    assert.deepEqual(
      [done.state, done.cancelled, done.failed, done.cancelled_at],
      ['completed', 2, 0, cancelled.cancelled_at],
    );
    assert.deepEqual(
      (await completed(bulk.id)).map((e) => [e.data.cancelled, e.data.cancelled_at]),
      [[2, cancelled.cancelled_at]],
    );
  });

  it('refuses a bulk send that completed without a cancel (409), and another Site’s or no bulk send (404)', async () => {
    const bulk = await start([row(20)]);
    while ((await process()) > 0);
    const refused = await cancel(bulk.id).expect(409);
    assert.equal(refused.body.code, 'bulk_send_completed');
    assert.equal(
      ((await h.http.get(`/v1.1/bulk_sends/${bulk.id}`).set(headers)).body as BulkSendView).cancelled_at,
      null,
    );

    const running = await start([row(21)]);
    await cancel(running.id, await principal([SITE_B])).expect(404);
    await cancel('not-a-uuid').expect(404);
    const after = (await h.http.get(`/v1.1/bulk_sends/${running.id}`).set(headers).expect(200))
      .body as BulkSendView;
    assert.equal(after.cancelled_at, null, 'nothing changed');
    while ((await process()) > 0);
  });
});
