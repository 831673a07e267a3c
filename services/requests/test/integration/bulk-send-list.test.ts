import assert from 'node:assert/strict';
import type { BulkSendList, BulkSendSummary, BulkSendView, RequestList, RequestView } from '@esign/contracts';
import { bulkSendStarter, bulkSendWorker } from '../support/bulk-send-fixture.js';
import {
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { migrationsFrom } from '../support/migrations.js';

/**
 * ADR 3440 against real Postgres: a Site's bulk sends listed newest first, each with the
 * counts its own page gives and its templates by name (a deleted one too), by state, by
 * template, by when they started and by page; another Site's never, and a bad query a 400
 * by name.
 */
describe('requests service: a Site’s bulk sends listed (real Postgres)', function () {
  this.timeout(60_000);
  let h: Harness;
  let headers: Record<string, string>;
  let nda: number;
  let order: number;
  let process: () => Promise<number>;
  let start: ReturnType<typeof bulkSendStarter>;

  before(async () => {
    h = await startHarness('bulk_send_list');
    headers = await principal([SITE_A, SITE_B]);
    nda = await publishedTemplate(h.http);
    order = await publishedTemplate(h.http, SITE_A, htmlTemplateBody({ name: 'Order form' }));
    process = bulkSendWorker(h);
    start = bulkSendStarter(h, headers);
  });
  after(async () => h?.close());

  const row = (i: number, email = `row-${i}@example.com`) => ({
    signers: [{ signer_id: `c-${i}`, signer: { email }, send_to: { email: true } }],
    render_data: { client_name: `Client ${i}`, start_date: '2031-01-01' },
    fields: ['full_name', 'agree', 'signature'].map((name) => ({ name, assigned_to: `c-${i}` })),
  });
  const list = async (query = '', site = SITE_A.id) =>
    (await h.http.get(`/v1.1/sites/${site}/bulk_sends${query}`).set(headers).expect(200))
      .body as BulkSendList;
  const progress = async (id: string) =>
    (await h.http.get(`/v1.1/bulk_sends/${id}`).set(headers).expect(200)).body as BulkSendView;

  it('lists the Site’s bulk sends newest first, each with its own page’s counts and its templates by name', async () => {
    const first = await start([nda, order], [row(0), row(1), { signers: [] }]);
    h.clock.advance(1000);
    const second = await start([nda], [row(2)], false);
    const elsewhere = await publishedTemplate(h.http, SITE_B);
    await start([elsewhere], [row(3)], true, SITE_B.id);
    assert.equal((await list('?state=running')).total_count, 2, 'both running before the worker');
    while ((await process()) > 0);

    const page = await list();
    assert.deepEqual(
      page.data.map((b) => b.id),
      [second.id, first.id],
      'newest first, this Site’s only',
    );
    assert.deepEqual(
      [page.page, page.per_page, page.count, page.total_count, page.has_more],
      [1, 20, 2, 2, false],
    );
    for (const listed of page.data) {
      const shown = await progress(listed.id);
      const { failures: _failures, requests: _requests, ...counts } = shown;
      const { contracts: _contracts, ...rest } = listed;
      assert.deepEqual(rest, counts, 'the same counts as its own page');
    }
    const [made, sent] = [page.data[1]!, page.data[0]!];
    assert.deepEqual(made.contracts, [
      { id: nda, name: 'NDA' },
      { id: order, name: 'Order form' },
    ]);
    assert.deepEqual(
      [made.state, made.rows_total, made.created, made.sent, made.failed],
      ['completed', 3, 2, 2, 1],
    );
    assert.deepEqual([sent.send, sent.created, sent.sent], [false, 1, 0]);

    // A template deleted since (ADR 3430) is still named.
    await h.http.delete(`/v1.1/contracts/${order}`).set(headers).expect(204);
    assert.deepEqual(
      (await list()).data[1]!.contracts.map((c) => c.name),
      ['NDA', 'Order form'],
    );
  });

  it('filters by state and pages', async () => {
    assert.equal((await list('?state=running')).total_count, 0);
    const completed = await list('?state=completed&per_page=1&page=2');
    assert.deepEqual([completed.count, completed.total_count, completed.has_more], [1, 2, false]);
    h.clock.advance(1000);
    const running = await start([nda], [row(4)]);
    const listed = await list('?state=running');
    assert.deepEqual(
      listed.data.map((b: BulkSendSummary) => [b.id, b.state, b.created]),
      [[running.id, 'running', 0]],
    );
    while ((await process()) > 0);
  });

  it('lists only the bulk sends made with a template, with the state and pages too', async () => {
    // Bulk sends of this Site, newest first: [nda] (row 4), [nda] (row 2), [nda, order] (rows 0, 1).
    const all = (await list()).data.map((b) => b.id);
    assert.deepEqual(
      (await list(`?contract_id=${order}`)).data.map((b) => b.id),
      [all[2]],
      'the one naming the template among its two, deleted since',
    );
    const withNda = await list(`?contract_id=${nda}&state=completed&per_page=1&page=2`);
    assert.deepEqual(
      [withNda.data.map((b) => b.id), withNda.total_count, withNda.has_more],
      [[all[1]], 3, true],
    );
    assert.equal((await list('?contract_id=999999')).total_count, 0, 'a template no bulk send names');
  });

  it('names, once migrated, the bulk send of each Request made before ADR 3510, and of no other', async () => {
    const bulk = await start([nda], [row(7), row(8)]);
    while ((await process()) > 0);
    const made = (await progress(bulk.id)).requests.map((r) => r.request_id);
    const alone = (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({ contracts: [nda], signers: [{ signer_id: 'c-alone' }] })
        .expect(201)
    ).body as RequestView;
    // Back to before the column (its migration and every later one come off), then up again.
    const run = migrationsFrom(h.database.url, '1770100000000_request-bulk-send.sql');
    await run('down');
    await run('up');
    const read = async (id: string) =>
      ((await h.http.get(`/v1.1/requests/${id}`).set(headers).expect(200)).body as RequestView).bulk_send_id;
    assert.deepEqual(await Promise.all([...made, alone.id].map(read)), [bulk.id, bulk.id, null]);
  });

  it('lists the Requests a bulk send made among the Site’s Requests, by state too (bulk_send_id)', async () => {
    const bulk = await start([nda], [row(5), row(6), { signers: [] }]);
    while ((await process()) > 0);
    const made = (await progress(bulk.id)).requests.map((r) => r.request_id);
    assert.equal(made.length, 2);
    const requests = async (query: string) =>
      (
        (await h.http.get(`/v1.1/sites/${SITE_A.id}/requests${query}`).set(headers).expect(200))
          .body as RequestList
      ).data.map((r) => r.id);
    assert.deepEqual((await requests(`?bulk_send_id=${bulk.id}`)).sort(), [...made].sort());
    // Each names the bulk send that made it (ADR 3510); a copy of one was made by a copy.
    const read = async (id: string) =>
      (await h.http.get(`/v1.1/requests/${id}`).set(headers).expect(200)).body as RequestView;
    assert.deepEqual(await Promise.all(made.map(async (id) => (await read(id)).bulk_send_id)), [
      bulk.id,
      bulk.id,
    ]);
    const copy = await h.http.post(`/v1.1/requests/${made[0]}/copy`).set(headers).expect(201);
    assert.equal((copy.body as RequestView).bulk_send_id, null);
    assert.equal((await read((copy.body as RequestView).id)).bulk_send_id, null);
    await h.http.post(`/v1.1/requests/${made[0]}/cancel`).set(headers).expect(200);
    assert.deepEqual(await requests(`?bulk_send_id=${bulk.id}&state=sent`), [made[1]]);
    assert.deepEqual(await requests(`?bulk_send_id=${bulk.id.toUpperCase()}&state=cancelled`), [made[0]]);
    // Another Site's list holds none of them, and a bulk send that made none lists none.
    const b = await principal([SITE_B]);
    const elsewhere = await h.http
      .get(`/v1.1/sites/${SITE_B.id}/requests?bulk_send_id=${bulk.id}`)
      .set(b)
      .expect(200);
    assert.equal((elsewhere.body as RequestList).total_count, 0);
    const none = await start([nda], [{ signers: [] }]);
    assert.deepEqual(await requests(`?bulk_send_id=${none.id}`), []);
    const refused = await h.http
      .get(`/v1.1/sites/${SITE_A.id}/requests?bulk_send_id=42`)
      .set(headers)
      .expect(400);
    assert.deepEqual(
      (refused.body.errors as { path: string }[]).map((e) => e.path),
      ['bulk_send_id'],
    );
  });

  it('lists the bulk sends started in a half-open interval of instants (created_from, created_before)', async () => {
    const template = await publishedTemplate(h.http, SITE_B);
    h.clock.advance(3_600_000);
    const early = await start([template], [{ signers: [] }], true, SITE_B.id);
    h.clock.advance(60_000);
    const late = await start([template], [{ signers: [] }], true, SITE_B.id);
    const ids = async (query: string) => (await list(query, SITE_B.id)).data.map((b) => b.id);
    const [first] = (await ids('')).slice(-1);
    const from = encodeURIComponent(early.created_at);
    const before = encodeURIComponent(late.created_at);
    assert.deepEqual(
      await ids(`?created_from=${from}`),
      [late.id, early.id],
      'at or after: its start included',
    );
    assert.deepEqual(
      await ids(`?created_from=${from}&created_before=${before}`),
      [early.id],
      'before: its end not',
    );
    assert.deepEqual(await ids(`?created_before=${from}&state=completed`), [first], 'with the state too');
    const refused = async (query: string) =>
      (
        (await h.http.get(`/v1.1/sites/${SITE_B.id}/bulk_sends${query}`).set(headers).expect(400)).body
          .errors as { path: string }[]
      ).map((e) => e.path);
    assert.deepEqual(await refused(`?created_from=${before}&created_before=${before}`), ['created_before']);
    assert.deepEqual(await refused('?created_from=2026-12-01'), ['created_from'], 'a day is not an instant');
  });

  it('answers 404 for a Site the caller does not reach, and a bad query 400 by name', async () => {
    const other = await principal([SITE_B]);
    await h.http.get(`/v1.1/sites/${SITE_A.id}/bulk_sends`).set(other).expect(404);
    const refused = await h.http
      .get(`/v1.1/sites/${SITE_A.id}/bulk_sends?state=paused&per_page=500&sort=asc&contract_id=x`)
      .set(headers)
      .expect(400);
    assert.deepEqual((refused.body.errors as { path: string }[]).map((e) => e.path).sort(), [
      'contract_id',
      'per_page',
      'sort',
      'state',
    ]);
  });
});
