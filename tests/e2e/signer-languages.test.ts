// Issue 23 part 3 through the gateway, against the whole system as `npm start` runs it: a
// Request whose signers have `"locale": "es"` has its e-mail and SMS, its signing page and
// its executed document's audit page in Spanish.
import assert from 'node:assert/strict';
import { createEsignClient } from '@esign/client';
import { eventually, startEsignSystem, type EsignSystem } from '@esign/testing';
import { conformingFetch } from './support/conformance.js';
import {
  agreementRequest,
  clientOf,
  clientRef,
  completedText,
  executionUrlIn,
  mailsTo,
  ok,
  publishedAgreement,
  unique,
  uniqueMobile,
  waitForMail,
  waitForSms,
  type ClientOf,
} from './support/flow.js';
import { signAt } from './support/signer.js';

describe('end to end through the gateway: a Request in Spanish (issue 23)', function () {
  this.timeout(180_000);
  let system: EsignSystem;
  let acme: ClientOf;
  let template: number;

  before(async () => {
    system = await startEsignSystem({ label: 'e2e_languages' });
    acme = clientOf(system, await system.createTenant('Acme'));
    template = await publishedAgreement(acme);
  });
  after(async () => {
    await system?.stop();
  });

  it('writes the e-mail, the SMS, the signing page and the audit page in Spanish', async () => {
    const email = `ana-${unique()}@example.com`;
    const mobile = uniqueMobile();
    const body = agreementRequest(template, { email, mobile });
    const created = ok(
      await acme.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: acme.site } },
        body: {
          ...body,
          signers: body.signers.map((s) => ({ ...s, locale: s.signer_id === mobile ? 'es-MX' : 'es' })),
        },
      }),
      201,
      'create',
    );
    assert.deepEqual(
      created.signers.map((s) => s.locale),
      ['es', 'es-MX'],
    );
    ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/send', {
        params: { path: { request_id: created.id } },
      }),
      200,
      'send',
    );

    const mail = await waitForMail(system, email);
    assert.match(mail.mail.subject ?? '', /^Acme .* le ha enviado "[^"]+" para firmar$/);
    assert.match(mail.mail.text ?? '', /^Hola:/);
    assert.match(mail.mail.text ?? '', /Revise y firme aquí:/);
    assert.match(String(mail.mail.html), /<html lang="es" dir="ltr">/);
    const sms = await waitForSms(system, `+1${mobile}`);
    assert.match(sms.body, /le ha enviado .* para firmar\. Firme aquí: https?:\/\//);

    const signed = await signAt(executionUrlIn(mail.mail.text ?? ''), 'Ana Pérez');
    assert.equal(signed.status, 303, signed.page.slice(0, 500));
    assert.match(signed.page, /<html lang="es" dir="ltr">/);
    for (const spanish of ['Su firma', 'Escriba su nombre completo', 'Rechazar la firma'])
      assert.ok(signed.page.includes(spanish), spanish);
    const other = await signAt(executionUrlIn(sms.body), 'Luis García');
    assert.equal(other.status, 303, other.page.slice(0, 500));
    assert.match(other.page, /<html lang="es" dir="ltr">/);

    const text = await completedText(acme, created.id);
    for (const spanish of [
      'Documento formalizado',
      'Registro de auditoría',
      'Enviado por',
      'Firmantes',
      'Ana Pérez',
    ])
      assert.ok(text.includes(spanish), `${spanish} in the executed PDF`);
    assert.ok(!text.includes('Audit trail'));

    // Once everyone signed, the e-mail signer is told, in Spanish, with a link to their copy.
    const completed = await eventually(
      () => Promise.resolve(mailsTo(system, email).find((m) => /^Completado:/.test(m.mail.subject ?? ''))),
      20_000,
    );
    assert.match(completed.mail.text ?? '', /Descargue su copia del documento firmado/);
    assert.equal(clientRef(email), created.signers[0]!.signer_id);
  });

  it('a Site default locale set by its account admin writes to signers without one in that language', async () => {
    const tenant = await system.createTenant('Lingua');
    const password = 'a long passphrase for the languages suite';
    await system.admin('set-password', '--user', tenant.user.id, '--password', password);
    const anonymous = createEsignClient({ baseUrl: system.gatewayUrl, fetch: (r) => conformingFetch(r) });
    const session = ok(
      await anonymous.POST('/v1.1/sessions', { body: { email: tenant.user.email, password } }),
      201,
      'sign in',
    );
    const admin = createEsignClient({
      baseUrl: system.gatewayUrl,
      accessToken: session.session_token,
      fetch: (r) => conformingFetch(r),
    });
    const site = ok(
      await admin.PATCH('/v1.1/account/sites/{account_site_id}', {
        params: { path: { account_site_id: tenant.site.id } },
        body: { default_locale: 'fr' },
      }),
      200,
      'set the default locale',
    );
    assert.equal(site.default_locale, 'fr');
    const token = ok(await admin.POST('/v1.1/sessions/current/access-token'), 201, 'token');
    const lingua = clientOf(system, { ...tenant, token: { id: 'session', accessToken: token.access_token } });
    const agreement = await publishedAgreement(lingua);
    const email = `zoe-${unique()}@example.com`;
    const created = ok(
      await lingua.esign.POST('/v1.1/sites/{site_id}/requests', {
        params: { path: { site_id: lingua.site } },
        body: {
          contracts: [agreement],
          signers: [{ signer_id: email, send_to: { email: true } }],
          fields: ['full_name', 'signature', 'witness_signature'].map((name) => ({
            name,
            assigned_to: email,
          })),
        },
      }),
      201,
      'create',
    );
    assert.equal(created.signers[0]!.locale, null);
    ok(
      await lingua.esign.POST('/v1.1/requests/{request_id}/send', {
        params: { path: { request_id: created.id } },
      }),
      200,
      'send',
    );
    const mail = await waitForMail(system, email);
    assert.match(mail.mail.subject ?? '', /vous a envoyé "[^"]+" à signer$/);
    assert.match(String(mail.mail.html), /<html lang="fr" dir="ltr">/);
    const page = await conformingFetch(executionUrlIn(mail.mail.text ?? ''), {
      headers: { 'accept-language': 'de' },
    });
    assert.match(await page.text(), /<html lang="fr" dir="ltr">/);
  });
});
