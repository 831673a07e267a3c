import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { ContractList, ContractView } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import {
  htmlTemplateBody,
  idsOf,
  pdfWithFields,
  principal,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { pdfBomb } from '../support/pdf-bomb.js';

describe('requests service: contract templates over HTTP (real Postgres)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('contracts_api');
  });
  after(async () => {
    await h.close();
  });

  it('creates an HTML template as a draft, with its tokens and declared fields', async () => {
    const response = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(await principal())
      .send(htmlTemplateBody())
      .expect(201);
    assert.ok(E.isRight(ContractView.decode(response.body)));
    assert.equal(response.headers.location, `/v1.1/contracts/${response.body.id}`);
    assert.equal(response.body.state, 'draft');
    assert.equal(response.body.site_id, SITE_A.id);
    assert.deepEqual(response.body.tokens, ['client_name', 'start_date']);
    assert.deepEqual(response.body.fields, [
      { name: 'full_name', type: 'text', max_length: 80 },
      { name: 'agree', type: 'checkbox' },
      { name: 'signature', type: 'signature' },
    ]);
    assert.match(String(response.body.document.sha256), /^[0-9a-f]{64}$/);
    assert.equal(response.body.published_at, null);
  });

  it('reads the form fields of an uploaded PDF', async () => {
    const response = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(await principal())
      .send({ type: 'pdf', name: 'Lease', pdf: await pdfWithFields() })
      .expect(201);
    assert.equal(response.body.type, 'pdf');
    assert.equal(response.body.html, null);
    assert.deepEqual(response.body.fields, [
      { name: 'tenant', type: 'text', max_length: 40 },
      { name: 'pets', type: 'checkbox' },
      { name: 'term', type: 'choice', options: ['12 months', '24 months'] },
    ]);
    assert.ok(response.body.document.size_bytes > 100);
  });

  it('refuses bad templates with the offending field named', async () => {
    const headers = await principal();
    const cases: [unknown, { path: string; message: string }[]][] = [
      [{ name: 'x', html: 'y' }, [{ path: 'type', message: 'required' }]],
      [{ type: 'docx', name: 'x' }, [{ path: 'type', message: 'must be "html" or "pdf"' }]],
      [
        { type: 'pdf', name: 'x', pdf: 'bm90IGEgcGRm' },
        [{ path: 'pdf', message: 'must be a PDF file encoded in base64' }],
      ],
      [
        { type: 'pdf', name: 'x', pdf: Buffer.from('%PDF-1.7 but then nothing').toString('base64') },
        [{ path: 'pdf', message: 'is not a readable PDF' }],
      ],
      [
        { type: 'html', name: 'x', html: 'Hi {{first name}}' },
        [
          {
            path: 'html',
            message:
              'has an invalid placeholder "{{first name}}" at offset 3: a token name is a letter or _ followed by up to 99 letters, digits, _, . or -',
          },
        ],
      ],
      [
        { type: 'html', name: 'x', html: 'x', fields: [{ name: 'p', type: 'choice' }] },
        [{ path: 'fields[0].options', message: 'required for a choice field' }],
      ],
      [{ type: 'html', name: '', html: 'x', extra: 1 }, [{ path: 'extra', message: 'unknown field' }]],
    ];
    for (const [body, errors] of cases) {
      const response = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/contracts`)
        .set(headers)
        .send(body as object);
      assert.equal(response.status, 422, JSON.stringify(body));
      assert.equal(response.body.code, 'invalid_body');
      assert.deepEqual(response.body.errors, errors, JSON.stringify(body));
    }
  });

  it('HIGH 1: refuses HTML a signer would not be shown, naming each part, and stores nothing', async () => {
    const headers = await principal();
    const before = await h.http.get(`/v1.1/sites/${SITE_A.id}/contracts`).set(headers).expect(200);
    const cases: [string, RegExp][] = [
      [
        '<p>Terms.</p><img alt="Signer owes $10,000">',
        /^has <img> at offset 13, which a signer would not be shown/,
      ],
      ['<select><option>Signer owes $10,000</option></select>', /^has <select> at offset 0/],
      ['<p>x</p><option>Signer owes $10,000</option>', /^has <option> at offset 8/],
      ['<button>Signer owes $10,000</button>', /^has <button> at offset 0/],
      ['<svg><text>Signer owes $10,000</text></svg>', /^has <svg> at offset 0/],
      ['<title>Signer owes $10,000</title><p>Terms</p>', /^has <title> at offset 0/],
      ['<p onclick="steal()">x</p>', /^has attribute "onclick" on <p> at offset 0/],
      ['<a href="javascript:alert(1)">read</a>', /^has a "javascript:" link on <a> at offset 0/],
    ];
    for (const [html, message] of cases) {
      const response = await h.http
        .post(`/v1.1/sites/${SITE_A.id}/contracts`)
        .set(headers)
        .send(htmlTemplateBody({ html }));
      assert.equal(response.status, 422, html);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      assert.equal(response.body.code, 'invalid_body');
      assert.ok(response.body.errors.length >= 1, html);
      assert.equal(response.body.errors[0].path, 'html');
      assert.match(String(response.body.errors[0].message), message, html);
    }
    const after = await h.http.get(`/v1.1/sites/${SITE_A.id}/contracts`).set(headers).expect(200);
    assert.equal(after.body.total_count, before.body.total_count);
  });

  it('HIGH 1: stores the admitted form, and its size and hash are of that form', async () => {
    const html = '<p>Between {{client_name}}<br>and us</p><ul><li>One<li>Two</ul>';
    const stored = '<p>Between {{client_name}}<br />and us</p><ul><li>One</li><li>Two</li></ul>';
    const created = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(await principal())
      .send(htmlTemplateBody({ html, fields: [] }))
      .expect(201);
    assert.equal(created.body.html, stored);
    assert.equal(created.body.document.size_bytes, Buffer.byteLength(stored));
    assert.equal(created.body.document.sha256, createHash('sha256').update(stored).digest('hex'));
  });

  it('HIGH 2: refuses a PDF decompression bomb with a 422 naming pdf, and keeps answering', async function () {
    // Building and reading a 100 MB bomb is slow on a busy machine; nothing here is timed.
    this.timeout(180_000);
    const headers = await principal();
    const bomb = pdfBomb(100 * 1024 * 1024).toString('base64');
    const [refused, listed] = await Promise.all([
      h.http
        .post(`/v1.1/sites/${SITE_A.id}/contracts`)
        .set(headers)
        .send({ type: 'pdf', name: 'Bomb', pdf: bomb }),
      h.http.get(`/v1.1/sites/${SITE_A.id}/contracts`).set(headers),
    ]);
    assert.equal(refused.status, 422);
    assert.deepEqual(refused.body.errors, [
      {
        path: 'pdf',
        message: "decompresses to more than 64 MB: a contract PDF's streams may hold at most that",
      },
    ]);
    assert.equal(listed.status, 200);
    await h.http.get(`/v1.1/sites/${SITE_A.id}/contracts`).set(headers).expect(200);
    await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(headers)
      .send({ type: 'pdf', name: 'Lease', pdf: await pdfWithFields() })
      .expect(201);
  });

  it('publishes a template; publishing again answers the same template unchanged', async () => {
    const headers = await principal();
    const created = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/contracts`)
      .set(headers)
      .send(htmlTemplateBody())
      .expect(201);
    const first = await h.http.post(`/v1.1/contracts/${created.body.id}/publish`).set(headers).expect(200);
    assert.equal(first.body.state, 'published');
    assert.ok(first.body.published_at);
    const again = await h.http.post(`/v1.1/contracts/${created.body.id}/publish`).set(headers).expect(200);
    assert.equal(again.body.published_at, first.body.published_at);
    const read = await h.http.get(`/v1.1/contracts/${created.body.id}`).set(headers).expect(200);
    assert.equal(read.body.state, 'published');
    assert.equal(read.body.html, htmlTemplateBody().html);
  });

  it("answers 404 for another site's template exactly as for a missing one", async () => {
    const created = await h.http
      .post(`/v1.1/sites/${SITE_B.id}/contracts`)
      .set(await principal([SITE_B]))
      .send(htmlTemplateBody())
      .expect(201);
    const headersA = await principal([SITE_A]);
    const foreign = await h.http.get(`/v1.1/contracts/${created.body.id}`).set(headersA).expect(404);
    const missing = await h.http.get('/v1.1/contracts/999999').set(headersA).expect(404);
    assert.deepEqual({ ...foreign.body, request_id: undefined }, { ...missing.body, request_id: undefined });
    await h.http.post(`/v1.1/contracts/${created.body.id}/publish`).set(headersA).expect(404);
    await h.http.get(`/v1.1/sites/${SITE_B.id}/contracts`).set(headersA).expect(404);
    await h.http
      .post(`/v1.1/sites/${SITE_B.id}/contracts`)
      .set(headersA)
      .send(htmlTemplateBody())
      .expect(404);
    await h.http.get('/v1.1/contracts/not-a-number').set(headersA).expect(404);
  });

  it("lists a site's templates newest first, paged, filtered by state", async () => {
    const site = { id: 303, name: 'Lister' };
    const headers = await principal([site]);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await h.http
        .post(`/v1.1/sites/${site.id}/contracts`)
        .set(headers)
        .send(htmlTemplateBody({ name: `T${i}` }))
        .expect(201);
      ids.push(r.body.id as number);
    }
    await h.http.post(`/v1.1/contracts/${ids[1]}/publish`).set(headers).expect(200);
    const page2 = await h.http
      .get(`/v1.1/sites/${site.id}/contracts?page=2&per_page=2`)
      .set(headers)
      .expect(200);
    assert.ok(E.isRight(ContractList.decode(page2.body)));
    assert.deepEqual(
      { ...page2.body, data: idsOf(page2.body) },
      { page: 2, per_page: 2, count: 2, total_count: 5, has_more: true, data: [ids[2], ids[1]] },
    );
    assert.equal(page2.body.data[0].html, undefined);
    const published = await h.http
      .get(`/v1.1/sites/${site.id}/contracts?state=published`)
      .set(headers)
      .expect(200);
    assert.deepEqual(idsOf(published.body), [ids[1]]);
    const bad = await h.http
      .get(`/v1.1/sites/${site.id}/contracts?per_page=101&sort=x`)
      .set(headers)
      .expect(400);
    assert.deepEqual(bad.body.errors, [
      { path: 'sort', message: 'unknown parameter' },
      { path: 'per_page', message: 'must be an integer from 1 to 100' },
    ]);
  });
});
