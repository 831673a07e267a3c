import assert from 'node:assert/strict';
import type { ContractList, ContractView, RequestView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import {
  countRows,
  oneSignerRequestBody,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';

/**
 * ADR 3430 against real Postgres: a published template is deleted. No call reads it or lists
 * it again and no new Request, copy, bulk send or draft's added contract may use it, while the
 * Requests made with it go on: sent, and their signers read it.
 */
describe('requests service: published contract templates deleted (real Postgres)', () => {
  let h: Harness;
  let headers: Record<string, string>;
  before(async () => {
    h = await startHarness('deleted_templates');
    headers = await principal([SITE_A]);
  });
  after(async () => {
    await h.close();
  });

  const listed = async (query = '') =>
    (
      (await h.http.get(`/v1.1/sites/${SITE_A.id}/contracts?per_page=100${query}`).set(headers).expect(200))
        .body as ContractList
    ).data.map((c) => c.id);
  const create = (body: object) => h.http.post(`/v1.1/sites/${SITE_A.id}/requests`).set(headers).send(body);
  const remove = (id: number, as = headers) => h.http.delete(`/v1.1/contracts/${id}`).set(as);

  it('deletes a published template, archived or not: no call reads or lists it again', async () => {
    const id = await publishedTemplate(h.http);
    const archived = await publishedTemplate(h.http);
    await h.http.post(`/v1.1/contracts/${archived}/archive`).set(headers).expect(200);
    const before = (await h.http.get(`/v1.1/contracts/${id}`).set(headers).expect(200)).body as ContractView;

    for (const deleted of [id, archived]) {
      await remove(deleted).expect(204);
      await h.http.get(`/v1.1/contracts/${deleted}`).set(headers).expect(404);
      for (const query of ['', '&state=published', '&archived=true', '&archived=false', '&q=NDA'])
        assert.ok(!(await listed(query)).includes(deleted), `not listed with "${query}"`);
      for (const action of ['publish', 'archive', 'unarchive', 'copy'])
        await h.http.post(`/v1.1/contracts/${deleted}/${action}`).set(headers).send({}).expect(404);
      await h.http.get(`/v1.1/contracts/${deleted}/document`).set(headers).expect(404);
      await remove(deleted).expect(404);
    }

    // The row stays for the Requests made with it, marked; its event names it as it was.
    const row = await h.pool.one(
      sql.unsafe`SELECT state, deleted_at, updated_at FROM contract_templates WHERE id = ${id}`,
    );
    assert.equal(row.state, 'published');
    assert.ok(
      row.deleted_at !== null && row.updated_at === row.deleted_at,
      'deleted_at is the time of the call',
    );
    const told = await h.pool.one(
      sql.unsafe`SELECT envelope->'data' AS data FROM outbox
                 WHERE type = 'contract.deleted' AND envelope->>'aggregate_id' = ${String(id)}`,
    );
    assert.deepEqual(told.data, {
      contract_id: id,
      name: before.name,
      type: 'html',
      state: 'published',
      archived_at: null,
    });
  });

  it('refuses new Requests, copies, bulk sends and added contracts with it, writing nothing', async () => {
    const id = await publishedTemplate(h.http);
    const other = await publishedTemplate(h.http);
    const made = (await create(oneSignerRequestBody(id, 'before@example.com')).expect(201))
      .body as RequestView;
    const draft = (await create(oneSignerRequestBody(other, 'draft@example.com')).expect(201))
      .body as RequestView;
    await remove(id).expect(204);

    const requests = await countRows(h.pool, 'requests');
    const deleted = [{ path: 'contracts[0]', message: `contract template ${id} was deleted: use another` }];
    assert.deepEqual(
      (await create(oneSignerRequestBody(id, 'after@example.com')).expect(422)).body.errors,
      deleted,
    );
    assert.deepEqual(
      (await h.http.post(`/v1.1/requests/${made.id}/copy`).set(headers).send({}).expect(422)).body.errors,
      deleted,
    );
    const bulk = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/bulk_sends`)
      .set(headers)
      .send({
        contracts: [id],
        rows: [{ signers: [{ signer_id: 'bulk@example.com', send_to: { email: true } }] }],
      })
      .expect(422);
    assert.deepEqual(bulk.body.errors, deleted);
    const added = await h.http
      .post(`/v1.1/requests/${draft.id}/contracts`)
      .set(headers)
      .send({ contract_id: id })
      .expect(422);
    assert.deepEqual(added.body.errors, [
      { path: 'contract_id', message: `contract template ${id} was deleted: use another` },
    ]);
    assert.equal(await countRows(h.pool, 'requests'), requests, 'no Request written');
    assert.deepEqual(
      ((await h.http.get(`/v1.1/requests/${draft.id}`).set(headers).expect(200)).body as RequestView)
        .contracts,
      [other],
      'no contract added',
    );
  });

  it('lets the Requests made with it go on: sent, changed as drafts, and read by their signers', async () => {
    const id = await publishedTemplate(h.http);
    const made = (await create(oneSignerRequestBody(id, 'signer@example.com')).expect(201))
      .body as RequestView;
    await remove(id).expect(204);

    const changed = await h.http
      .patch(`/v1.1/requests/${made.id}`)
      .set(headers)
      .send({ render_data: { client_name: 'Acme', start_date: '2031-01-01' } })
      .expect(200);
    assert.deepEqual((changed.body as RequestView).contracts, [id], 'it keeps the template');
    const sent = (await h.http.post(`/v1.1/requests/${made.id}/send`).set(headers).expect(200))
      .body as RequestView;
    assert.equal(sent.state, 'sent');
    const link = new URL(sent.signers[0]!.request_url);
    const page = await h.http.get(`${link.pathname}${link.search}`).expect(200);
    assert.match(page.text, /Between Acme and us, from 2031-01-01\./);
    assert.deepEqual(
      (
        (await h.http.get(`/v1.1/sites/${SITE_A.id}/requests?contract_id=${id}`).set(headers).expect(200))
          .body as {
          data: { id: string }[];
        }
      ).data.map((r) => r.id),
      [made.id],
      'its Requests are still listed by it',
    );
  });

  it('answers 404 for a template of a Site the caller does not reach, deleting nothing', async () => {
    const id = await publishedTemplate(h.http);
    await remove(id, await principal([SITE_B])).expect(404);
    await h.http.get(`/v1.1/contracts/${id}`).set(headers).expect(200);
  });
});
