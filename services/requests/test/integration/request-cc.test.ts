import assert from 'node:assert/strict';
import type { RequestView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import { SITE_A, type Harness } from '../support/harness.js';
import { startRequestsApi } from '../support/requests-api-fixture.js';

/** ADR 3230 against real Postgres: a Request's carbon copies, kept in order and replaced while it is open. */
describe('requests service: a Request’s carbon copies over HTTP (real Postgres)', () => {
  let h: Harness;
  let html: number;
  let headers: Record<string, string>;

  before(async () => {
    ({ h, html, headers } = await startRequestsApi('request_cc'));
  });
  after(async () => {
    await h.close();
  });

  it('keeps the carbon copies (ADR 3230), lower-cased and in order, replaced while open; one given twice writes nothing', async () => {
    const created = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({
        contracts: [html],
        signers: [{ signer_id: 'cc-signer' }],
        cc: ['Legal@Example.com', 'ops@example.com'],
      })
      .expect(201);
    const view = created.body as RequestView;
    assert.deepEqual(view.cc, ['legal@example.com', 'ops@example.com']);
    const read = await h.http.get(`/v1.1/requests/${view.id}`).set(headers).expect(200);
    assert.deepEqual((read.body as RequestView).cc, ['legal@example.com', 'ops@example.com'], 'stored');
    const before = Number(await h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM requests`));
    const refused = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({
        contracts: [html],
        signers: [{ signer_id: 'cc-signer' }],
        cc: ['a@example.com', 'not an address', 'A@example.com'],
      })
      .expect(422);
    assert.deepEqual(
      (refused.body.errors as { path: string }[]).map((e) => e.path),
      ['cc[1]'],
      'the codec first: an address that is not one',
    );
    await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({
        contracts: [html],
        signers: [{ signer_id: 'cc-signer' }],
        cc: ['a@example.com', 'A@example.com'],
      })
      .expect(422);
    assert.equal(Number(await h.pool.oneFirst(sql.unsafe`SELECT count(*) FROM requests`)), before);

    // Replaced whole while the Request is open, sent or not; a repeat is refused and writes nothing.
    await h.http.post(`/v1.1/requests/${view.id}/cancel`).set(headers).expect(200);
    await h.http.patch(`/v1.1/requests/${view.id}`).set(headers).send({ cc: [] }).expect(409);
    const open = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({ contracts: [html], signers: [{ signer_id: 'cc-signer' }], cc: ['legal@example.com'] })
      .expect(201);
    const id = (open.body as RequestView).id;
    const changed = await h.http
      .patch(`/v1.1/requests/${id}`)
      .set(headers)
      .send({ cc: ['Ops@Example.com', 'legal@example.com'] })
      .expect(200);
    assert.deepEqual((changed.body as RequestView).cc, ['ops@example.com', 'legal@example.com']);
    const twice = await h.http
      .patch(`/v1.1/requests/${id}`)
      .set(headers)
      .send({ cc: ['a@example.com', 'A@example.com'] })
      .expect(422);
    assert.deepEqual(twice.body.errors, [{ path: 'cc[1]', message: 'repeats cc[0]' }]);
    const stored = await h.http.get(`/v1.1/requests/${id}`).set(headers).expect(200);
    assert.deepEqual((stored.body as RequestView).cc, ['ops@example.com', 'legal@example.com']);
  });
});
