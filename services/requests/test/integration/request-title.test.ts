import assert from 'node:assert/strict';
import * as t from 'io-ts';
import type { RequestList, RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { SITE_A, type Harness } from '../support/harness.js';
import { startRequestsApi } from '../support/requests-api-fixture.js';

/**
 * ADR 3390 against real Postgres: a Request's title, the sender's own name for it: kept,
 * searched in the Site's list, changed while the Request is open, copied.
 */
describe('requests service: a Request’s title (real Postgres)', () => {
  let h: Harness;
  let html: number;
  let headers: Record<string, string>;
  before(async () => {
    ({ h, html, headers } = await startRequestsApi('request_title'));
  });
  after(async () => {
    await h.close();
  });

  type Answer = RequestView & { errors?: { path: string; message: string }[] };
  const create = async (body: Record<string, unknown>, status = 201) =>
    (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/requests`)
        .set(headers)
        .send({ contracts: [html], signers: [{ signer_id: 'ada@example.com' }], ...body })
        .expect(status)
    ).body as Answer;
  const patch = async (id: string, body: Record<string, unknown>, status = 200) =>
    (await h.http.patch(`/v1.1/requests/${id}`).set(headers).send(body).expect(status)).body as Answer;
  const titles = async (query: string) =>
    (
      (await h.http.get(`/v1.1/sites/${SITE_A.id}/requests?per_page=100&${query}`).set(headers).expect(200))
        .body as RequestList
    ).data.map((r) => r.title);

  it('keeps a title trimmed, none as null, and refuses a blank, long or multi-line one by name', async () => {
    assert.equal((await create({ title: '  Lease — 4 Quay Street ' })).title, 'Lease — 4 Quay Street');
    assert.equal((await create({})).title, null);
    const before = Number(await h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM requests`));
    for (const [title, words] of [
      ['   ', 'must not be blank'],
      ['x'.repeat(256), 'must be at most 255 characters'],
      ['Lease\nBcc: x', 'must be one line, without control characters'],
      [7, undefined],
    ] as const) {
      const refused = await create({ title }, 422);
      assert.deepEqual(
        refused.errors?.map((e) => e.path),
        ['title'],
        String(title),
      );
      if (words !== undefined) assert.equal(refused.errors?.[0]?.message, words);
    }
    assert.equal(Number(await h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM requests`)), before);
  });

  it('lists the Requests whose title holds a text, in any case, with the other filters', async () => {
    await create({ title: 'Office LEASE renewal' });
    await create({ title: '100% refund_policy' });
    assert.deepEqual((await titles('q=lease')).sort(), ['Lease — 4 Quay Street', 'Office LEASE renewal']);
    assert.deepEqual(await titles(`q=${encodeURIComponent('  quay ')}&state=draft`), [
      'Lease — 4 Quay Street',
    ]);
    assert.deepEqual(await titles('q=lease&state=sent'), []);
    assert.deepEqual(await titles(`q=${encodeURIComponent('%')}`), ['100% refund_policy']);
    assert.deepEqual(await titles('q=_'), ['100% refund_policy']);
    for (const bad of ['q=', `q=${encodeURIComponent('  ')}`, `q=${'x'.repeat(256)}`])
      await h.http.get(`/v1.1/sites/${SITE_A.id}/requests?${bad}`).set(headers).expect(400);
  });

  it('changes or removes the title of a draft or a sent Request, told as changed; a closed one’s is a 409', async () => {
    const draft = await create({ title: 'First' });
    assert.equal((await patch(draft.id, { title: ' Second ' })).title, 'Second');
    assert.equal((await patch(draft.id, { title: null })).title, null);
    assert.deepEqual(
      (await patch(draft.id, { title: 'a\tb' }, 422)).errors?.map((e) => e.path),
      ['title'],
    );
    const told = await db.any(
      h.pool,
      t.type({ changed: t.unknown }),
      sql.unsafe`SELECT envelope->'data'->'changed' AS changed FROM outbox
        WHERE type = 'request.updated' AND envelope->>'aggregate_id' = ${draft.id} ORDER BY id`,
    );
    assert.deepEqual(
      told.map((r) => r.changed),
      [['title'], ['title']],
    );
    const copy = (
      await h.http
        .post(`/v1.1/requests/${(await create({ title: 'Kept' })).id}/copy`)
        .set(headers)
        .send({})
        .expect(201)
    ).body as RequestView;
    assert.equal(copy.title, 'Kept', 'a copy keeps it');
    await h.http.post(`/v1.1/requests/${copy.id}/cancel`).set(headers).expect(200);
    await patch(copy.id, { title: 'Too late' }, 409);
  });
});
