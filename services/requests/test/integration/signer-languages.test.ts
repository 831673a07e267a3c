import assert from 'node:assert/strict';
import * as t from 'io-ts';
import type { RequestView } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import {
  countRows,
  htmlTemplateBody,
  principal,
  publishedTemplate,
  SITE_A,
  startHarness,
  type Harness,
} from '../support/harness.js';
import { pdfText } from '../support/pdf-text.js';
import { formBody, hiddenInputs, pathOf } from '../support/signer-forms.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * Issue 23 part 3 over HTTP against real Postgres: a signer's `locale` is kept, travels
 * with the send event, and writes their pages and the audit page in their language;
 * without one the browser's Accept-Language chooses; a tag that is not one is refused.
 */
describe('requests service: signers in their own language (issue 23)', function () {
  let h: Harness;
  let headers: Record<string, string>;
  let template: number;

  const create = (signers: Record<string, unknown>[]) =>
    h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(headers)
      .send({
        contracts: [template],
        signers,
        fields: [{ name: 'signature', assigned_to: signers[0]!.signer_id }],
      });

  const sent = async (signers: Record<string, unknown>[]): Promise<RequestView> => {
    const created = await create(signers);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const res = await h.http.post(`/v1.1/requests/${(created.body as RequestView).id}/send`).set(headers);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as RequestView;
  };

  const open = (view: RequestView, signer: number, acceptLanguage?: string) => {
    const req = h.http.get(pathOf(view.signers[signer]!.request_url));
    return acceptLanguage === undefined ? req : req.set('Accept-Language', acceptLanguage);
  };

  before(async () => {
    h = await startHarness('languages');
    headers = await principal();
    template = await publishedTemplate(
      h.http,
      SITE_A,
      htmlTemplateBody({
        name: 'Contrato de servicios',
        html: '<p>Acuerdo entre las partes.</p>',
        fields: [{ name: 'signature', type: 'signature' }],
      }),
    );
  });
  after(() => h.close());

  it('keeps the locale in canonical form, shows it, and sends it with the event', async () => {
    const view = await sent([
      { signer_id: 'ana@example.com', send_to: { email: true }, locale: 'es-mx' },
      { signer_id: 'bo@example.com', send_to: { email: true } },
    ]);
    assert.deepEqual(
      view.signers.map((s) => s.locale),
      ['es-MX', null],
    );
    const event = await db.one(
      h.pool,
      t.type({ signers: t.array(t.type({ signer_id: t.string, locale: t.string })) }),
      sql.unsafe`SELECT envelope->'data'->'signers' AS signers FROM outbox
                 WHERE envelope->>'aggregate_id' = ${view.id} AND envelope->>'type' = 'request.sent'`,
    );
    assert.deepEqual(
      event.signers.map((s) => [s.signer_id, s.locale]),
      [
        ['ana@example.com', 'es'],
        ['bo@example.com', 'en'],
      ],
    );
  });

  it('refuses a locale that is not a BCP 47 tag, naming the field, and creates nothing', async () => {
    const before = await countRows(h.pool, 'requests');
    const res = await create([{ signer_id: 'ana@example.com', locale: 'spanish please' }]);
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(await countRows(h.pool, 'requests'), before);
    assert.match(res.headers['content-type']!, /^application\/problem\+json/);
    const body = res.body as { errors: { path: string; message: string }[] };
    assert.equal(body.errors[0]!.path, 'signers[0].locale');
    assert.match(body.errors[0]!.message, /BCP 47/);
  });

  it('writes the signing page in the signer’s language, before the browser’s', async () => {
    const view = await sent([{ signer_id: 'ana@example.com', locale: 'es' }]);
    const page = await open(view, 0, 'de-DE,de;q=0.9').expect(200);
    assert.match(page.text, /<html lang="es" dir="ltr">/);
    for (const spanish of [
      'Acme Production le pide que revise y firme',
      'Su firma',
      'Escriba su nombre completo',
      '<button type="submit">Firmar</button>',
      'Rechazar la firma',
      'Ir al contenido',
    ])
      assert.ok(page.text.includes(spanish), spanish);
    assert.ok(!page.text.includes('Your signature'));
  });

  it('names the form’s problems in Spanish, and asks for a code in Spanish', async () => {
    const view = await sent([{ signer_id: 'ana@example.com', locale: 'es' }]);
    const page = await open(view, 0).expect(200);
    const refused = await h.http
      .post('/sign')
      .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
      .send(formBody({ ...hiddenInputs(page.text, '/sign'), typed_name: '' }))
      .expect(422);
    assert.match(refused.text, /<html lang="es" dir="ltr">/);
    for (const spanish of [
      'Corrija estos 2 puntos',
      'Su nombre: escriba su nombre completo para firmar',
      'Consentimiento: marque la casilla para aceptar firmar electrónicamente',
    ])
      assert.ok(refused.text.includes(spanish), spanish);

    const badDrawing = await h.http
      .post('/sign')
      .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin', 'Accept-Language': 'es' })
      .send(
        formBody({
          ...hiddenInputs(page.text, '/sign'),
          typed_name: 'Ana Pérez',
          consent: 'yes',
          drawn_signature: 'data:image/gif;base64,R0lGOD',
        }),
      )
      .expect(400);
    assert.ok(badDrawing.text.includes('No se pudo leer la firma dibujada'));
    assert.ok(badDrawing.text.includes('No es una imagen PNG.'));

    const guarded = await sent([
      {
        signer_id: 'ana@example.com',
        locale: 'es',
        authentication: { method: 'access_code', access_code: 'blue-42' },
      },
    ]);
    const code = await open(guarded, 0, 'en').expect(200);
    assert.match(code.text, /<html lang="es" dir="ltr">/);
    for (const spanish of ['Introduzca su código', 'Código de acceso', 'Continuar'])
      assert.ok(code.text.includes(spanish), spanish);
  });

  it('without a locale, follows Accept-Language (nearest supported), else English', async () => {
    const view = await sent([{ signer_id: 'bo@example.com' }]);
    const french = await open(view, 0, 'ja, fr-CA;q=0.8, en;q=0.5').expect(200);
    assert.match(french.text, /<html lang="fr" dir="ltr">/);
    assert.ok(french.text.includes('Votre signature'));
    const english = await open(view, 0, 'ja').expect(200);
    assert.match(english.text, /<html lang="en" dir="ltr">/);
    assert.ok(english.text.includes('Your signature'));
  });

  it('answers a broken link in the browser’s language', async () => {
    const res = await h.http.get('/sign?r=x').set('Accept-Language', 'pt-BR').expect(400);
    assert.match(res.text, /<html lang="pt" dir="ltr">/);
    assert.ok(res.text.includes('Este link está incompleto'));
  });

  /** Signs as signer `i` from their page, as a browser would; answers the redirect. */
  const sign = async (view: RequestView, i: number, name: string) => {
    const page = await open(view, i).expect(200);
    return h.http
      .post('/sign')
      .set({ 'Content-Type': FORM, 'Sec-Fetch-Site': 'same-origin' })
      .send(formBody({ ...hiddenInputs(page.text, '/sign'), typed_name: name, consent: 'yes' }))
      .expect(303);
  };
  const executedText = async (view: RequestView) => {
    const res = await h.http.get(`/v1.1/requests/${view.id}/download`).set(headers).buffer(true).expect(200);
    return pdfText(new Uint8Array(res.body as Buffer));
  };

  it('signs in Spanish, thanks in Spanish, and writes the executed document’s contract and audit pages in Spanish', async () => {
    const view = await sent([{ signer_id: 'ana@example.com', locale: 'es' }]);
    const signed = await sign(view, 0, 'Ana Pérez');
    const done = await h.http.get(
      pathOf(new URL(signed.headers.location!, 'https://esign.example/').toString()),
    );
    assert.equal(done.status, 200, done.text.slice(0, 500));
    assert.ok(done.text.includes('Gracias: ha firmado'), done.text.slice(0, 1500));

    const { text } = await executedText(view);
    for (const spanish of [
      'Documento formalizado',
      'Registro de auditoría',
      'Enviado por',
      'Firmantes',
      'Firmado como',
      'Ana Pérez',
      // The contract pages too, since ADR 3820.
      'Firmas',
      'firmado por ana@example.com el',
      'página 2 de',
    ])
      assert.ok(text.includes(spanish), `${spanish} in ${text.slice(0, 400)}`);
    assert.ok(!text.includes('Audit trail') && !text.includes('Signatures'));
  });

  it('without a signer locale, follows the Site default the Request was made with, before the browser', async () => {
    const siteDefault = await principal([{ ...SITE_A, default_locale: 'de' }]);
    const created = await h.http
      .post(`/v1.1/sites/${SITE_A.id}/requests`)
      .set(siteDefault)
      .send({
        contracts: [template],
        signers: [{ signer_id: 'dora@example.com' }, { signer_id: 'ana@example.com', locale: 'es' }],
        fields: [{ name: 'signature', assigned_to: 'dora@example.com' }],
      })
      .expect(201);
    const view = created.body as RequestView;
    await h.http.post(`/v1.1/requests/${view.id}/send`).set(siteDefault).expect(200);
    const event = await db.one(
      h.pool,
      t.type({ signers: t.array(t.type({ locale: t.string })) }),
      sql.unsafe`SELECT envelope->'data'->'signers' AS signers FROM outbox
                 WHERE envelope->>'aggregate_id' = ${view.id} AND envelope->>'type' = 'request.sent'`,
    );
    assert.deepEqual(
      event.signers.map((s) => s.locale),
      ['de', 'es'],
    );
    const page = await open(view, 0, 'fr').expect(200);
    assert.match(page.text, /<html lang="de" dir="ltr">/);
    assert.ok(page.text.includes('Ihre Unterschrift'));
    // The two read different languages: the audit page is in the Site's.
    await sign(view, 0, 'Dora Schmidt');
    await sign(view, 1, 'Ana Pérez');
    const { text } = await executedText(view);
    assert.ok(text.includes('Prüfprotokoll'), text.slice(0, 400));
  });

  it('writes the audit page in English when the signers read different languages', async () => {
    const view = await sent([
      { signer_id: 'ana@example.com', locale: 'es' },
      { signer_id: 'dora@example.com', locale: 'de' },
    ]);
    await sign(view, 0, 'Ana Pérez');
    await sign(view, 1, 'Dora Schmidt');
    const { text } = await executedText(view);
    assert.ok(text.includes('Audit trail'), text.slice(0, 400));
    assert.ok(!text.includes('Registro de auditoría') && !text.includes('Prüfprotokoll'));
  });
});
