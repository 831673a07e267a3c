import assert from 'node:assert/strict';
import * as t from 'io-ts';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import {
  countRows,
  principal,
  publishedTemplate,
  SITE_A,
  SITE_B,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { formBody, hiddenInputs, pathOf } from '../support/signer-forms.js';
import { pdfText } from '../support/pdf-text.js';
import { testLogo } from '../support/png.js';

const ACCENT = '#005f73';

/**
 * Branding per Site over HTTP against real Postgres (ADR 2301): the API refuses what it
 * cannot show safely, naming the field; the signing page and the events carry the
 * branding; the logo is served by its hash.
 */
describe('requests service: branding per Site (API, signing page, events, logo)', function () {
  this.timeout(60_000);
  let h: Harness;
  let headers: Record<string, string>;
  const logo = testLogo();

  before(async () => {
    h = await startHarness('branding');
    headers = await principal([SITE_A]);
  });
  after(async () => {
    await h?.close();
  });

  const put = (body: unknown, site = SITE_A.id) =>
    h.http
      .put(`/v1.1/sites/${site}/branding`)
      .set(headers)
      .send(body as object);

  it('is neutral until set', async () => {
    const view = await h.http.get(`/v1.1/sites/${SITE_A.id}/branding`).set(headers).expect(200);
    assert.deepEqual(view.body, {
      site_id: SITE_A.id,
      display_name: null,
      accent_color: null,
      reply_to: null,
      email_footer: null,
      logo: null,
      updated_at: null,
    });
  });

  it('refuses an SVG, a file that is not a PNG, a pale accent and a bad address, naming each, writing nothing', async () => {
    const cases: [unknown, string, RegExp][] = [
      [
        { logo: { content_type: 'image/svg+xml', data_base64: 'PHN2Zy8+' } },
        'logo.content_type',
        /SVG logos are refused/,
      ],
      [
        { logo: { content_type: 'image/png', data_base64: Buffer.from('GIF89a...').toString('base64') } },
        'logo.data_base64',
        /not a PNG/,
      ],
      [{ logo: { content_type: 'image/png', data_base64: 'not base64!' } }, 'logo.data_base64', /base64/],
      [{ accent_color: '#ffdd00' }, 'accent_color', /contrast with white is .*4\.5:1/],
      [{ accent_color: 'teal' }, 'accent_color', /#rrggbb/],
      [{ reply_to: 'not an address' }, 'reply_to', /e-mail/],
      [{ email_footer: 'x'.repeat(501) }, 'email_footer', /at most 500/],
      [{ colour: '#005f73' }, 'colour', /./],
    ];
    for (const [body, path, message] of cases) {
      const answer = await put(body);
      assert.equal(answer.status, 422, `${path}: ${answer.text}`);
      assert.equal(answer.headers['content-type'], 'application/problem+json');
      const error = (answer.body.errors as { path: string; message: string }[]).find((e) => e.path === path);
      assert.ok(error, `${path} named in ${answer.text}`);
      assert.match(error.message, message);
    }
    assert.equal(await countRows(h.pool, 'site_brandings'), 0);
    assert.equal(
      (await put({ display_name: 'Other' }, SITE_B.id)).status,
      404,
      'a Site the token does not reach',
    );
  });

  it('sets it, serves the logo by its hash, and shows it on the signing page and in the events', async () => {
    const saved = await put({
      display_name: 'Harbour Lettings',
      accent_color: ACCENT,
      reply_to: 'lettings@harbour.example',
      email_footer: 'Harbour Lettings Ltd\n4 Quay Street, Portsmouth',
      logo: { content_type: 'image/png', data_base64: logo.toString('base64') },
    }).expect(200);
    const view = saved.body as { logo: { url: string; sha256: string; bytes: number } };
    assert.equal(view.logo.bytes, logo.length);
    const served = await h.http.get(pathOf(view.logo.url)).buffer(true).expect(200);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.equal(served.headers['x-content-type-options'], 'nosniff');
    assert.match(served.headers['content-security-policy']!, /sandbox/);
    assert.deepEqual(Buffer.from(served.body as Buffer), logo);
    await h.http.get(pathOf(view.logo.url).replace(view.logo.sha256, 'f'.repeat(64))).expect(404);

    const template = await publishedTemplate(h.http);
    const created = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({
        contracts: [template],
        signers: [{ signer_id: 'ada@example.com', send_to: { email: true } }],
        fields: ['full_name', 'agree', 'signature'].map((name) => ({ name, assigned_to: 'ada@example.com' })),
      })
      .expect(201);
    const sent = (await h.http.post(`/v1.1/requests/${created.body.id}/send`).set(headers).expect(200))
      .body as RequestView;
    const page = await h.http.get(pathOf(sent.signers[0]!.request_url)).expect(200);
    assert.ok(
      page.text.includes(
        `<img class="logo" src="/${`sign/logo/${SITE_A.id}/${view.logo.sha256}.png`}" alt="Harbour Lettings"`,
      ),
    );
    assert.ok(page.text.includes(`--accent: ${ACCENT};`));
    assert.ok(page.text.includes('Harbour Lettings asks you to review and sign'));
    assert.match(page.headers['content-security-policy']!, /img-src https:\/\/esign\.example\/sign\/logo\/;/);

    const event = await db.one(
      h.pool,
      t.type({ data: t.UnknownRecord }),
      sql.unsafe`SELECT envelope->'data' AS data FROM outbox WHERE type = 'request.sent' AND envelope->>'aggregate_id' = ${sent.id}`,
    );
    const data = event.data;
    assert.deepEqual(data.site, { id: SITE_A.id, name: 'Harbour Lettings' });
    assert.deepEqual(data.branding, {
      accent_color: ACCENT,
      reply_to: 'lettings@harbour.example',
      email_footer: 'Harbour Lettings Ltd\n4 Quay Street, Portsmouth',
      logo_path: `sign/logo/${SITE_A.id}/${view.logo.sha256}.png`,
    });

    // Signed, then the executed PDF: the display name and the logo on the audit page.
    await h.http
      .post('/sign')
      .set({ 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' })
      .send(
        formBody({
          ...hiddenInputs(page.text, '/sign'),
          f0: 'Ada Lovelace',
          f1: 'on',
          typed_name: 'Ada Lovelace',
          consent: 'yes',
        }),
      )
      .expect(303);
    const pdf = await h.http.get(`/v1.1/requests/${sent.id}/download`).set(headers).buffer(true).expect(200);
    const bytes = new Uint8Array(pdf.body as Buffer);
    const { pages } = await pdfText(bytes);
    assert.match(pages.at(-1)!, /Audit trail .*Sent by: Harbour Lettings/);
    const images =
      Buffer.from(bytes)
        .toString('latin1')
        .match(/\/Subtype\s*\/Image/g) ?? [];
    assert.equal(images.length, 1, 'the logo (no drawn signature in this Request)');
  });

  it('clears the text parts a later PUT leaves out, keeps the logo until it is removed', async () => {
    const before = (await h.http.get(`/v1.1/sites/${SITE_A.id}/branding`).set(headers).expect(200)).body as {
      logo: { url: string; bytes: number };
    };
    const kept = await put({ display_name: 'Harbour Lettings' }).expect(200);
    assert.equal(kept.body.accent_color, null);
    assert.equal(kept.body.reply_to, null);
    assert.deepEqual(kept.body.logo, before.logo);
    const both = await put({
      remove_logo: true,
      logo: { content_type: 'image/png', data_base64: logo.toString('base64') },
    });
    assert.equal(both.status, 422);
    assert.equal(both.body.errors[0].path, 'remove_logo');
    const removed = await put({ display_name: 'Harbour Lettings', remove_logo: true }).expect(200);
    assert.equal(removed.body.logo, null);
    await h.http.get(pathOf(before.logo.url)).expect(404);
  });
});
