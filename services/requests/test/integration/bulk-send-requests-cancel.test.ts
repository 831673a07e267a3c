import assert from 'node:assert/strict';
import type { BulkSendRequestsCancelled, BulkSendView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import { bulkSendStarter, bulkSendWorker } from '../support/bulk-send-fixture.js';
import {
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';

/**
 * ADR 3480 against real Postgres: the Requests a completed bulk send made are cancelled in
 * one call, each with its own `request.cancelled`; those closed already are counted and
 * left; a running bulk send is refused and keeps what it made; asked to, each cancel tells
 * its signers (ADR 3530).
 */
describe('requests service: the Requests a bulk send made, cancelled (real Postgres)', function () {
  this.timeout(60_000);
  let h: Harness;
  let headers: Record<string, string>;
  let template: number;
  let process: (limit?: number) => Promise<number>;
  let start: (rows: readonly unknown[], send?: boolean) => Promise<BulkSendView>;

  before(async () => {
    h = await startHarness('bulk_send_requests_cancel');
    headers = await principal([SITE_A]);
    template = await publishedTemplate(h.http);
    process = bulkSendWorker(h);
    const starter = bulkSendStarter(h, headers);
    start = (rows, send = true) => starter([template], rows, send);
  });
  after(async () => h?.close());

  const row = (i: number) => ({
    signers: [{ signer_id: `r-${i}`, signer: { email: `rc-${i}@example.com` }, send_to: { email: true } }],
    render_data: { client_name: `Client ${i}`, start_date: '2031-01-01' },
    fields: ['full_name', 'agree', 'signature'].map((name) => ({ name, assigned_to: `r-${i}` })),
  });
  const made = async (id: string) => {
    while ((await process()) > 0);
    const bulk = (await h.http.get(`/v1.1/bulk_sends/${id}`).set(headers).expect(200)).body as BulkSendView;
    return bulk.requests.map((r) => r.request_id);
  };
  const cancelRequests = (id: string, as = headers) =>
    h.http.post(`/v1.1/bulk_sends/${id}/cancel_requests`).set(as);
  const states = async (ids: readonly string[]) =>
    (
      await h.pool.any(
        sql.unsafe`SELECT state FROM requests WHERE id = ANY(${sql.array([...ids], 'uuid')})
                   ORDER BY array_position(${sql.array([...ids], 'uuid')}, id)`,
      )
    ).map((r) => (r as { state: string }).state);
  const cancelEvents = async (ids: readonly string[]) =>
    Number(
      await h.pool.oneFirst(
        sql.unsafe`SELECT count(*) FROM outbox WHERE type = 'request.cancelled'
                   AND envelope->>'aggregate_id' = ANY(${sql.array([...ids], 'text')})`,
      ),
    );

  it('cancels each open Request once, counts those closed already, and cancels nothing more when repeated', async () => {
    const bulk = await start([row(0), row(1), row(2), row(3)]);
    const ids = await made(bulk.id);
    assert.equal(ids.length, 4);
    // Row 0's Request was cancelled on its own; row 1's is past its expiry, not yet swept.
    await h.http.post(`/v1.1/requests/${ids[0]}/cancel`).set(headers).expect(200);
    await h.pool.query(
      sql.unsafe`UPDATE requests SET expires_at = now() - interval '1 minute' WHERE id = ${ids[1]!}`,
    );

    const answer = (await cancelRequests(bulk.id).expect(200)).body as BulkSendRequestsCancelled;
    assert.deepEqual(answer, { bulk_send_id: bulk.id, cancelled: 2, already_closed: 2 });
    assert.deepEqual(await states(ids), ['cancelled', 'sent', 'cancelled', 'cancelled']);
    assert.equal(await cancelEvents(ids), 3, 'one request.cancelled for each cancel, row 0’s included');

    const again = (await cancelRequests(bulk.id).send({}).expect(200)).body as BulkSendRequestsCancelled;
    assert.deepEqual(again, { bulk_send_id: bulk.id, cancelled: 0, already_closed: 4 });
    assert.equal(await cancelEvents(ids), 3, 'nothing cancelled twice');
  });

  it('cancels the drafts of a bulk send made without sending, each keeping the reason given (ADR 3500)', async () => {
    const bulk = await start([row(10), row(11)], false);
    const ids = await made(bulk.id);
    assert.deepEqual(await states(ids), ['draft', 'draft']);
    const blank = await cancelRequests(bulk.id).send({ reason: '  ' }).expect(422);
    assert.deepEqual(blank.body.errors, [{ path: 'reason', message: 'must not be blank' }]);
    const told = await cancelRequests(bulk.id).send({ notify_signers: 'yes' }).expect(422);
    assert.deepEqual(
      (told.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['notify_signers'],
    );
    assert.deepEqual(await states(ids), ['draft', 'draft'], 'refusals cancelled nothing');

    const sent = cancelRequests(bulk.id).send({ reason: ' Sent with last year’s prices. ' });
    const answer = (await sent.expect(200)).body as BulkSendRequestsCancelled;
    assert.deepEqual(answer, { bulk_send_id: bulk.id, cancelled: 2, already_closed: 0 });
    assert.deepEqual(await states(ids), ['cancelled', 'cancelled']);
    const kept = await h.pool.anyFirst(
      sql.unsafe`SELECT envelope->'data' FROM outbox WHERE type = 'request.cancelled'
                 AND envelope->>'aggregate_id' = ANY(${sql.array([...ids], 'text')})`,
    );
    assert.deepEqual(
      kept.map((data) => (data as { reason?: string }).reason),
      ['Sent with last year’s prices.', 'Sent with last year’s prices.'],
    );
  });

  it('tells each sent Request’s signers of its cancel when asked, and nobody of a Request closed already (ADR 3530)', async () => {
    const bulk = await start([row(30), row(31), row(32)]);
    const ids = await made(bulk.id);
    await h.http.post(`/v1.1/requests/${ids[2]}/cancel`).set(headers).expect(200);

    const body = { reason: 'Replaced by the new terms.', notify_signers: true };
    const answer = (await cancelRequests(bulk.id).send(body).expect(200)).body as BulkSendRequestsCancelled;
    assert.deepEqual(answer, { bulk_send_id: bulk.id, cancelled: 2, already_closed: 1 });
    const outbox = async (type: string) =>
      (
        await h.pool.any(
          sql.unsafe`SELECT envelope->>'aggregate_id' AS id, envelope->'data' AS data FROM outbox
                     WHERE type = ${type} AND envelope->>'aggregate_id' = ANY(${sql.array([...ids], 'text')})
                     ORDER BY array_position(${sql.array([...ids], 'text')}, envelope->>'aggregate_id')`,
        )
      ).map((r) => r as { id: string; data: Record<string, unknown> });
    const notices = await outbox('notice.cancelled');
    assert.deepEqual(
      notices.map(({ id, data }) => [
        id,
        data.reason,
        (data.signers as { signer_id: string; email: string }[]).map((s) => [s.signer_id, s.email]),
      ]),
      [
        [ids[0], 'Replaced by the new terms.', [['r-30', 'rc-30@example.com']]],
        [ids[1], 'Replaced by the new terms.', [['r-31', 'rc-31@example.com']]],
      ],
      'one notice for each Request this call cancelled, to its signer',
    );
    const cancelled = await outbox('request.cancelled');
    assert.deepEqual(
      cancelled.map(({ id, data }) => [id, data.signers_notified ?? false]),
      [
        [ids[0], true],
        [ids[1], true],
        [ids[2], false],
      ],
    );
  });

  it('refuses a running bulk send (409) and another Site’s (404), and names a body it does not take (422)', async () => {
    const bulk = await start([row(20), row(21)]);
    assert.equal(await process(1), 1, 'one row made, one pending');
    const refused = await cancelRequests(bulk.id).expect(409);
    assert.equal(refused.body.code, 'bulk_send_running');
    const first = ((await h.http.get(`/v1.1/bulk_sends/${bulk.id}`).set(headers)).body as BulkSendView)
      .requests;
    assert.deepEqual(await states(first.map((r) => r.request_id)), ['sent'], 'what it made is untouched');

    const ids = await made(bulk.id);
    await cancelRequests(bulk.id, await principal([SITE_B])).expect(404);
    await cancelRequests('not-a-uuid').expect(404);
    const unknown = await cancelRequests(bulk.id).send({ all: true }).expect(422);
    assert.deepEqual(
      (unknown.body as { errors: { path: string }[] }).errors.map((e) => e.path),
      ['all'],
    );
    assert.deepEqual(await states(ids), ['sent', 'sent'], 'refusals cancelled nothing');
  });
});
