import assert from 'node:assert/strict';
import type { ContractView } from '@esign/contracts';
import { sql } from '@esign/platform/database';
import {
  countRows,
  htmlTemplateBody,
  oneSignerRequestBody,
  pdfWithFields,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';

/**
 * ADR 3260 against real Postgres: any template is copied into a new draft of its Site with
 * the same content (HTML and fields, or the same PDF), which is then changed and published
 * on its own while the source stays as it was, or into another Site the caller reaches
 * (ADR 3320); and a PDF template's file is downloaded (ADR 3270).
 */
describe('requests service: contract templates copied into new drafts (real Postgres)', () => {
  let h: Harness;
  let headers: Record<string, string>;
  before(async () => {
    h = await startHarness('copied_templates');
    headers = await principal([SITE_A]);
  });
  after(async () => {
    await h.close();
  });

  const read = async (id: number) =>
    (await h.http.get(`/v1.1/contracts/${id}`).set(headers).expect(200)).body as ContractView;
  const copy = (id: number, body?: Record<string, unknown>) => {
    const call = h.http.post(`/v1.1/contracts/${id}/copy`).set(headers);
    return body === undefined ? call : call.send(body);
  };
  /** What a copy shares with its source: everything but its id, name, state and times. */
  const content = (c: ContractView) => [c.site_id, c.type, c.tokens, c.fields, c.document, c.html];

  it('copies a published, archived HTML template into a draft that is changed and published on its own', async () => {
    const id = await publishedTemplate(h.http);
    await h.http.post(`/v1.1/contracts/${id}/archive`).set(headers).expect(200);
    const source = await read(id);

    const made = await copy(id).expect(201);
    const draft = made.body as ContractView;
    assert.equal(made.headers.location, `/v1.1/contracts/${draft.id}`);
    assert.notEqual(draft.id, id);
    assert.deepEqual(
      [draft.name, draft.state, draft.published_at, draft.archived_at],
      [`${source.name} (copy)`, 'draft', null, null],
    );
    assert.deepEqual(content(draft), content(source));
    assert.ok(Date.parse(draft.created_at) >= Date.parse(source.updated_at));
    assert.deepEqual(await read(draft.id), draft, 'stored');

    // The copy is a draft like any other: replaced, published, used; the source stays archived.
    await h.http
      .put(`/v1.1/contracts/${draft.id}`)
      .set(headers)
      .send(htmlTemplateBody({ name: 'NDA v2', html: '<p>{{client_name}} agrees from {{start_date}}.</p>' }))
      .expect(200);
    await h.http.post(`/v1.1/contracts/${draft.id}/publish`).set(headers).expect(200);
    await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send(oneSignerRequestBody(draft.id, 'copy@example.com'))
      .expect(201);
    assert.deepEqual(await read(id), source, 'the source is unchanged');
  });

  it('copies a PDF template with its file, under the name given', async () => {
    const created = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(headers)
      .send({ type: 'pdf', name: 'Lease', pdf: await pdfWithFields() })
      .expect(201);
    const source = created.body as ContractView;
    const draft = (await copy(source.id, { name: 'Lease 2031' }).expect(201)).body as ContractView;
    assert.equal(draft.name, 'Lease 2031');
    assert.deepEqual(content(draft), content(source));
    const stored = await h.pool.oneFirst(
      sql.unsafe`
        SELECT (SELECT pdf FROM contract_templates WHERE id = ${draft.id})
             = (SELECT pdf FROM contract_templates WHERE id = ${source.id})`,
    );
    assert.equal(stored, true, 'the same PDF bytes');
  });

  it('copies a template into another Site the credential reaches, under its own name, that Site’s own from then on (ADR 3320)', async () => {
    const both = await principal([SITE_A, SITE_B]);
    const created = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(both)
      .send({ type: 'pdf', name: 'Lease', pdf: await pdfWithFields() })
      .expect(201);
    const source = created.body as ContractView;
    const made = await h.http
      .post(`/v1.1/contracts/${source.id}/copy`)
      .set(both)
      .send({ site_id: SITE_B.id })
      .expect(201);
    const copied = made.body as ContractView;
    assert.deepEqual([copied.site_id, copied.name, copied.state], [SITE_B.id, 'Lease', 'draft']);
    // A key is for one call: the same key with another Site named is refused.
    const key = `copy-${source.id}-to-b`;
    const keyed = (site_id: number) =>
      h.http
        .post(`/v1.1/contracts/${source.id}/copy`)
        .set(both)
        .set('Idempotency-Key', key)
        .send({ site_id });
    await keyed(SITE_B.id).expect(201);
    assert.equal((await keyed(SITE_A.id).expect(422)).body.code, 'idempotency_key_reused');
    assert.deepEqual(
      [copied.type, copied.fields, copied.document],
      [source.type, source.fields, source.document],
    );
    // It is the other Site's own: read, published and used there without the first Site.
    const onlyB = await principal([SITE_B]);
    await h.http.post(`/v1.1/contracts/${copied.id}/publish`).set(onlyB).expect(200);
    const file = await h.http.get(`/v1.1/contracts/${copied.id}/document`).set(onlyB).expect(200);
    assert.equal(file.headers['content-type'], 'application/pdf');
    await h.http.get(`/v1.1/contracts/${copied.id}`).set(headers).expect(404);
    assert.deepEqual(await read(source.id), source, 'the source is unchanged');
  });

  it('refuses, at site_id, a Site the credential does not reach, writing nothing (ADR 3320)', async () => {
    const id = await publishedTemplate(h.http);
    const templates = await countRows(h.pool, 'contract_templates');
    for (const site_id of [SITE_B.id, 999_999]) {
      const refused = await copy(id, { site_id }).expect(422);
      assert.deepEqual(
        (refused.body.errors as { path: string; message: string }[]).map((e) => `${e.path}: ${e.message}`),
        [`site_id: no site ${site_id} that this credential reaches`],
      );
    }
    assert.deepEqual(
      ((await copy(id, { site_id: 'b' }).expect(422)).body.errors as { path: string }[]).map((e) => e.path),
      ['site_id'],
    );
    assert.equal(await countRows(h.pool, 'contract_templates'), templates, 'nothing written');
    // Its own Site named: as without it.
    assert.equal(
      ((await copy(id, { site_id: SITE_A.id }).expect(201)).body as ContractView).name,
      'NDA (copy)',
    );
  });

  it('answers a PDF template’s file as uploaded, revalidated by its hash; an HTML template has none (ADR 3270)', async () => {
    const pdf = await pdfWithFields();
    const created = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(headers)
      .send({ type: 'pdf', name: 'Lease – 2031', pdf })
      .expect(201);
    const lease = created.body as ContractView;
    const file = await h.http
      .get(`/v1.1/contracts/${lease.id}/document`)
      .set(headers)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    assert.equal(file.headers['content-type'], 'application/pdf');
    assert.equal(
      file.headers['content-disposition'],
      `attachment; filename="contract-${lease.id}.pdf"; filename*=UTF-8''Lease%20%E2%80%93%202031.pdf`,
    );
    assert.equal(file.headers.etag, `"${lease.document.sha256}"`);
    assert.ok(Buffer.from(pdf, 'base64').equals(file.body as Buffer), 'the bytes uploaded');
    await h.http
      .get(`/v1.1/contracts/${lease.id}/document`)
      .set(headers)
      .set('If-None-Match', `"${lease.document.sha256}"`)
      .expect(304);

    const html = await publishedTemplate(h.http);
    const refused = await h.http.get(`/v1.1/contracts/${html}/document`).set(headers).expect(409);
    assert.equal(refused.body.code, 'template_is_html');
    await h.http
      .get(`/v1.1/contracts/${lease.id}/document`)
      .set(await principal([SITE_B]))
      .expect(404);
  });

  it('shortens a long default name to fit, and refuses a bad name or another Site’s template, writing nothing', async () => {
    const long = 'N'.repeat(199);
    const id = await publishedTemplate(h.http, SITE_A, htmlTemplateBody({ name: long }));
    const draft = (await copy(id).expect(201)).body as ContractView;
    assert.equal(draft.name, `${'N'.repeat(193)} (copy)`);
    assert.equal(draft.name.length, 200);

    const templates = await countRows(h.pool, 'contract_templates');
    const refused = await copy(id, { name: '' }).expect(422);
    assert.deepEqual(
      (refused.body.errors as { path: string }[]).map((e) => e.path),
      ['name'],
    );
    await copy(id, { name: 'x', pdf: 'no' }).expect(422);
    await h.http
      .post(`/v1.1/contracts/${id}/copy`)
      .set(await principal([SITE_B]))
      .expect(404);
    assert.equal(await countRows(h.pool, 'contract_templates'), templates, 'nothing written');
  });

  it('makes one copy for one Idempotency-Key, answering a retry with it', async () => {
    const id = await publishedTemplate(h.http);
    const key = `copy-${id}-key-0001`;
    const first = await copy(id).set('Idempotency-Key', key).expect(201);
    const templates = await countRows(h.pool, 'contract_templates');
    const again = await copy(id).set('Idempotency-Key', key).expect(201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal(await countRows(h.pool, 'contract_templates'), templates, 'one copy');
  });
});
