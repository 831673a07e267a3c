import assert from 'node:assert/strict';
import type { ContractList, ContractView } from '@esign/contracts';
import {
  countRows,
  htmlTemplateBody,
  oneSignerRequestBody,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';

/**
 * ADR 3250 against real Postgres: a published template is archived (new Requests and bulk
 * sends cannot use it, `archived=` lists tell it apart, Requests made with it go on) and
 * unarchived; a draft is neither.
 */
describe('requests service: published contract templates archived and unarchived (real Postgres)', () => {
  let h: Harness;
  let headers: Record<string, string>;
  before(async () => {
    h = await startHarness('archived_templates');
    headers = await principal([SITE_A]);
  });
  after(async () => {
    await h.close();
  });

  const read = async (id: number) =>
    (await h.http.get(`/v1.1/contracts/${id}`).set(headers).expect(200)).body as ContractView;
  const listed = async (query: string) =>
    (
      (await h.http.get(`/v1.1/sites/${SITE_A.id}/contracts?per_page=100${query}`).set(headers).expect(200))
        .body as ContractList
    ).data.map((c) => c.id);
  const archive = (id: number, action: 'archive' | 'unarchive' = 'archive') =>
    h.http.post(`/v1.1/contracts/${id}/${action}`).set(headers);

  it('archives a published template once, lists it apart, and unarchives it', async () => {
    const id = await publishedTemplate(h.http);
    const published = await read(id);
    assert.equal(published.archived_at, null);

    const archived = (await archive(id).expect(200)).body as ContractView;
    assert.ok(archived.archived_at !== null && Date.parse(archived.archived_at) > 0, 'archived_at is a time');
    assert.equal(archived.updated_at, archived.archived_at);
    assert.deepEqual(
      { ...archived, archived_at: null, updated_at: published.updated_at },
      published,
      'nothing else changed',
    );
    assert.deepEqual(await read(id), archived, 'stored');
    assert.deepEqual((await archive(id).expect(200)).body, archived, 'archiving again changes nothing');

    assert.ok((await listed('&archived=true')).includes(id));
    assert.ok(!(await listed('&archived=false')).includes(id));
    assert.ok(!(await listed('&state=published&archived=false')).includes(id));
    assert.ok((await listed('')).includes(id), 'without the filter, every template as before');

    const unarchived = (await archive(id, 'unarchive').expect(200)).body as ContractView;
    assert.equal(unarchived.archived_at, null);
    assert.deepEqual(await read(id), unarchived);
    assert.deepEqual((await archive(id, 'unarchive').expect(200)).body, unarchived, 'idempotent');
    assert.ok((await listed('&archived=false')).includes(id));
  });

  it('refuses new Requests and bulk sends with an archived template, writing nothing; made ones go on', async () => {
    const id = await publishedTemplate(h.http);
    const made = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send(oneSignerRequestBody(id, 'before@example.com'))
      .expect(201);
    await archive(id).expect(200);

    const requests = await countRows(h.pool, 'requests');
    const refused = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send(oneSignerRequestBody(id, 'after@example.com'))
      .expect(422);
    assert.deepEqual(refused.body.errors, [
      { path: 'contracts[0]', message: `contract template ${id} is archived: unarchive it, or use another` },
    ]);
    const bulk = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/bulk_sends`)
      .set(headers)
      .send({
        contracts: [id],
        rows: [{ signers: [{ signer_id: 'bulk@example.com', send_to: { email: true } }] }],
      })
      .expect(422);
    assert.deepEqual(
      (bulk.body.errors as { path: string }[]).map((e) => e.path),
      ['contracts[0]'],
    );
    assert.equal(await countRows(h.pool, 'requests'), requests, 'no Request written');

    // The Request made before the archive is sent as usual.
    const sent = await h.http.post(`/v1.1/requests/${made.body.id}/send`).set(headers).expect(200);
    assert.equal(sent.body.state, 'sent');

    await archive(id, 'unarchive').expect(200);
    await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send(oneSignerRequestBody(id, 'after@example.com'))
      .expect(201);
  });

  it('refuses to archive or unarchive a draft (409 template_draft), and another Site’s template (404)', async () => {
    const draft = (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/contracts`)
        .set(headers)
        .send(htmlTemplateBody())
        .expect(201)
    ).body as ContractView;
    for (const action of ['archive', 'unarchive'] as const) {
      const refused = await archive(draft.id, action).expect(409);
      assert.equal(refused.body.code, 'template_draft');
      assert.match(refused.body.detail as string, /draft/);
    }
    assert.deepEqual(await read(draft.id), draft, 'unchanged');

    const id = await publishedTemplate(h.http);
    const other = await principal([SITE_B]);
    await h.http.post(`/v1.1/contracts/${id}/archive`).set(other).expect(404);
    assert.equal((await read(id)).archived_at, null);
  });

  it('refuses an archived= that is not true or false, by name', async () => {
    const refused = await h.http
      .get(`/v1.1/sites/${SITE_A.id}/contracts?archived=yes`)
      .set(headers)
      .expect(400);
    assert.deepEqual(refused.body.errors, [{ path: 'archived', message: 'must be "true" or "false"' }]);
  });
});
