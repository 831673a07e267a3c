import assert from 'node:assert/strict';
import type { ContractView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import {
  htmlTemplateBody,
  pdfWithFields,
  principal,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';

/**
 * ADR 3240 against real Postgres: a draft template's content is replaced whole with
 * `PUT /v1.1/contracts/:id` (the create's body, checked the same way) or the draft is
 * deleted; a published template never changes (it is deleted by ADR 3430: deleted-templates).
 */
describe('requests service: draft contract templates replaced and deleted (real Postgres)', () => {
  let h: Harness;
  let headers: Record<string, string>;
  before(async () => {
    h = await startHarness('draft_templates');
    headers = await principal([SITE_A]);
  });
  after(async () => {
    await h.close();
  });

  const draft = async () =>
    (
      await h.http
        .post(`/v1.1/sites/${SITE_A.id}/contracts`)
        .set(headers)
        .send(htmlTemplateBody())
        .expect(201)
    ).body as ContractView;
  const read = async (id: number) =>
    (await h.http.get(`/v1.1/contracts/${id}`).set(headers).expect(200)).body as ContractView;

  it('replaces a draft’s content whole, keeping its id and creation time, checked as a create is', async () => {
    const created = await draft();
    const replaced = await h.http
      .put(`/v1.1/contracts/${created.id}`)
      .set(headers)
      .send({
        type: 'html',
        name: 'NDA (fixed)',
        html: '<p>Between {{company}} and us.</p>',
        fields: [{ name: 'signature', type: 'signature' }],
      })
      .expect(200);
    const view = replaced.body as ContractView;
    assert.deepEqual(
      [view.id, view.created_at, view.state, view.name, view.tokens, view.html],
      [
        created.id,
        created.created_at,
        'draft',
        'NDA (fixed)',
        ['company'],
        '<p>Between {{company}} and us.</p>',
      ],
    );
    assert.deepEqual(view.fields, [{ name: 'signature', type: 'signature' }]);
    assert.notEqual(view.document.sha256, created.document.sha256);
    assert.deepEqual(await read(created.id), view, 'stored');

    // Refused as a create would be: nothing changes.
    const refused = await h.http
      .put(`/v1.1/contracts/${created.id}`)
      .set(headers)
      .send({ type: 'html', name: 'X', html: '<p><img src="x">{{a}}</p>' })
      .expect(422);
    assert.deepEqual(
      (refused.body.errors as { path: string }[]).map((e) => e.path),
      ['html'],
    );
    assert.deepEqual(await read(created.id), view);

    // Even by a PDF, whose form fields are read from the file.
    const pdf = await h.http
      .put(`/v1.1/contracts/${created.id}`)
      .set(headers)
      .send({ type: 'pdf', name: 'Lease', pdf: await pdfWithFields() })
      .expect(200);
    const lease = pdf.body as ContractView;
    assert.deepEqual(
      [lease.type, lease.html, lease.tokens, lease.fields.map((f) => f.name)],
      ['pdf', null, [], ['tenant', 'pets', 'term']],
    );
  });

  it('deletes a draft outright; a published template is not replaced', async () => {
    const created = await draft();
    await h.http.delete(`/v1.1/contracts/${created.id}`).set(headers).expect(204);
    await h.http.get(`/v1.1/contracts/${created.id}`).set(headers).expect(404);
    assert.equal(
      await h.pool.maybeOne(sql.unsafe`SELECT id FROM contract_templates WHERE id = ${created.id}`),
      null,
      'no Request can name a draft, so nothing of it is kept',
    );
    await h.http.delete(`/v1.1/contracts/${created.id}`).set(headers).expect(404);

    const published = await draft();
    await h.http.post(`/v1.1/contracts/${published.id}/publish`).set(headers).expect(200);
    const kept = await read(published.id);
    const put = await h.http
      .put(`/v1.1/contracts/${published.id}`)
      .set(headers)
      .send(htmlTemplateBody({ name: 'Changed' }))
      .expect(409);
    assert.equal(put.body.code, 'template_published');
    assert.deepEqual(await read(published.id), kept, 'unchanged');
  });

  it('answers 404 for a template of a Site the caller does not reach, changing nothing', async () => {
    const created = await draft();
    const other = await principal([SITE_B]);
    await h.http.put(`/v1.1/contracts/${created.id}`).set(other).send(htmlTemplateBody()).expect(404);
    await h.http.delete(`/v1.1/contracts/${created.id}`).set(other).expect(404);
    assert.equal((await read(created.id)).name, created.name);
  });
});
