import assert from 'node:assert/strict';
import { apiProblem, appWith, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { ANN, BOB, DRAFT, ODD, SENT, shown } from '../support/draft-signers.js';
import { requestPageForm } from '../support/request-page.js';

/** ann has an order, an access code and Spanish; bob (an id a path must encode) has none of them. */
const ANN_SET = { ...ANN, order: 1, authentication: { method: 'access_code' }, locale: 'es' };
const SETTINGS = { ...DRAFT, signers: [ANN_SET, BOB] };
const PATCH_ANN = `PATCH /v1.1/requests/${ID}/signers/ann%40example.com`;
const PATCH_BOB = `PATCH /v1.1/requests/${ID}/signers/${encodeURIComponent(ODD)}`;
/** ann's form as her row posts it, unchanged. */
const ANN_FORM = {
  signer_id: 'ann@example.com',
  idempotency_key: 'key-set-1',
  was_order: '1',
  was_authentication: 'access_code',
  was_locale: 'es',
  order: '1',
  authentication: 'access_code',
  access_code: '',
  locale: 'es',
};
/** bob's, unchanged: he has none of them (a field not posted reads as empty). */
const BOB_FORM = { signer_id: ODD, idempotency_key: 'key-set-2' };

/** The calls that would change something. */
const writes = (app: ReturnType<typeof appWith>) => app.calls.filter((c) => c.method !== 'GET');

/** One signer's Signing settings form in the page (the form inside their row's disclosure). */
const formOf = (text: string, i: number): string =>
  text
    .split('<details class="settings"')
    .slice(1)
    .map((part) => `<details class="settings"${part.slice(0, part.indexOf('</details>'))}</details>`)
    .find((part) => part.includes(`id="settings-${i}-order"`)) ?? '';

/**
 * **Signing settings** of a draft's signer (ADR 3290), over the fake API: the disclosure in
 * each row, the PATCH it makes (only what changed), the refusals beside its controls, a
 * part-ordered draft on its page, and the History's words.
 */
describe('web: a draft signer’s signing settings', () => {
  const form = requestPageForm({
    action: 'signer-settings',
    call: PATCH_ANN,
    shown: SETTINGS,
    hidden: ANN_FORM,
  });
  const bob = requestPageForm({
    action: 'signer-settings',
    call: PATCH_BOB,
    shown: SETTINGS,
    hidden: BOB_FORM,
  });

  it('offers each signer of a draft the disclosure, prefilled with their order, check and language', async () => {
    const text = await form.show(SETTINGS);
    const ann = formOf(text, 0);
    assert.match(ann, /<summary>Signing settings<span class="visually-hidden"> of ann@example.com<\/span>/);
    assert.match(ann, /action="\/app\/requests\/[0-9a-f-]{36}\/signer-settings" novalidate/);
    assert.match(ann, /name="idempotency_key"\s+value="[0-9a-f-]{36}"/);
    assert.match(ann, /name="signer_id" value="ann@example.com"/);
    assert.match(
      ann,
      /"was_order" value="1"[^]*"was_authentication" value="access_code"[^]*"was_locale" value="es"/,
    );
    assert.match(ann, /id="settings-0-order"\s+name="order"\s+type="number"[^>]*value="1"/);
    assert.match(ann, /<option value="access_code"\s+selected>\s*Access code you give them/);
    assert.match(
      ann,
      /id="settings-0-code"\s+name="access_code"\s+type="text"\s+value=""\s+autocomplete="off"/,
    );
    assert.match(ann, /They have one: leave it empty to keep it/);
    assert.match(ann, /<option value="es"\s+selected>\s*Spanish \(es\)/);
    assert.match(ann, /The other signers have none\./);
    assert.match(ann, /aria-label="Save the signing settings of ann@example.com"/);
    const other = formOf(text, 1);
    assert.match(other, /name="signer_id" value="bob\/x@example.com"/);
    assert.match(other, /id="settings-1-order"\s+name="order"\s+type="number"[^>]*value=""/, 'empty: none');
    assert.match(other, /<select\s+id="settings-1-auth"[^>]*>\s*<option value=""\s+selected>\s*None/);
    assert.match(
      other,
      /<select\s+id="settings-1-locale"[^>]*>\s*<option value=""\s+selected>Site’s default/,
    );
    assert.match(other, /The other signers have 1\./);
    assert.doesNotMatch(other, /They have one/);
    assert.doesNotMatch(text, /<details class="settings"\s+open>/, 'closed on a fresh page');
    assert.match(text, /Order: 1;\s+check:\s+access code you give them;\s+language:\s+Spanish \(es\)/);
  });

  it('sends only what changed, emptied as null, with the form’s Idempotency-Key', async () => {
    const app = appWith({ ...form.answers(SETTINGS), [PATCH_BOB]: SETTINGS });
    const posts: [ReturnType<typeof form.post>, string][] = [
      // Only an order.
      [bob.post(app, { order: '2' }), ODD],
      // A check chosen, with its code.
      [
        bob.post(app, { authentication: 'access_code', access_code: ' open sesame ', idempotency_key: 'k2' }),
        ODD,
      ],
      // A one-time code: a code left in the field is not sent.
      [bob.post(app, { authentication: 'sms_otp', access_code: 'left over', locale: 'fr' }), ODD],
      // None, where she had one.
      [form.post(app, { authentication: '' }), 'ann@example.com'],
      // Her language cleared, her order emptied.
      [form.post(app, { locale: '', order: '' }), 'ann@example.com'],
      // Her access code kept (left empty), her order moved: no authentication at all.
      [form.post(app, { order: '3' }), 'ann@example.com'],
      // A new code for her.
      [form.post(app, { access_code: 'new code' }), 'ann@example.com'],
    ];
    for (const [post, signerId] of posts) {
      const res = await post.expect(303);
      assert.equal(
        res.headers.location,
        `/app/requests/${ID}?done=signer-settings&signer_id=${encodeURIComponent(signerId)}`,
      );
    }
    assert.deepEqual(
      app.calls.filter((c) => c.method === 'PATCH').map((c) => [c.path, c.body, c.idempotencyKey]),
      [
        [PATCH_BOB.slice(6), { order: 2 }, 'key-set-2'],
        [PATCH_BOB.slice(6), { authentication: { method: 'access_code', access_code: 'open sesame' } }, 'k2'],
        [PATCH_BOB.slice(6), { authentication: { method: 'sms_otp' }, locale: 'fr' }, 'key-set-2'],
        [PATCH_ANN.slice(6), { authentication: null }, 'key-set-1'],
        [PATCH_ANN.slice(6), { order: null, locale: null }, 'key-set-1'],
        [PATCH_ANN.slice(6), { order: 3 }, 'key-set-1'],
        [
          PATCH_ANN.slice(6),
          { authentication: { method: 'access_code', access_code: 'new code' } },
          'key-set-1',
        ],
      ],
    );
    const after = await shown(SETTINGS, `?done=signer-settings&signer_id=${encodeURIComponent(ODD)}`);
    assert.match(
      after,
      /<p class="success" role="status">bob\/x@example.com’s signing settings were saved\.<\/p>/,
    );
    const forged = await shown(SETTINGS, '?done=signer-settings&signer_id=cy');
    assert.doesNotMatch(forged, /signing settings were saved/, 'not for a signer the draft does not list');
  });

  it('asks the API nothing when nothing changed, and says so', async () => {
    const app = appWith(form.answers(SETTINGS));
    const res = await form.post(app, {}).expect(303);
    assert.equal(
      res.headers.location,
      `/app/requests/${ID}?done=signer-settings-same&signer_id=ann%40example.com`,
    );
    await bob.post(app, { order: ' ', access_code: 'typed without its method' }).expect(303);
    assert.deepEqual(writes(app), []);
    const after = await shown(SETTINGS, '?done=signer-settings-same&signer_id=ann%40example.com');
    assert.match(after, /ann@example.com’s signing settings were already as given: nothing was changed\./);
  });

  it('refuses what the form can tell is wrong without asking the API', async () => {
    const app = appWith(form.answers(undefined));
    const text = (await form.post(app, { order: '0' }).expect(422)).text;
    assert.match(
      text,
      /id="settings-0-order-error">Enter a whole number from 1 to 100, or leave it empty\.</,
    );
    assert.match(text, /<a href="#settings-0-order">Signing order: Enter a whole number/);
    const short = (await bob.post(app, { authentication: 'access_code', access_code: 'ab' }).expect(422))
      .text;
    assert.match(short, /id="settings-1-code-error">Enter 4 to 32 characters\.</);
    assert.match(short, /<a href="#settings-1-code">Access code: Enter 4 to 32 characters\.<\/a>/);
    const none = (await bob.post(app, { authentication: 'access_code' }).expect(422)).text;
    assert.match(none, /id="settings-1-code-error">Enter the access code you will give them/);
    assert.deepEqual(writes(app), []);
  });

  it('shows the API’s refusal beside each control, as typed, the disclosure open, with a summary linking to them', async () => {
    const refused = apiProblem(422, 'invalid_body', 'The request body is invalid', {
      'authentication.method':
        'a one-time code by e-mail needs the signer’s e-mail address: give the Site’s signer one first',
      'authentication.access_code': 'must be 4 to 32 characters',
      locale: 'must be a BCP 47 language tag',
      order: 'must be from 1 to 100',
    });
    const app = appWith(bob.answers(refused));
    const typed = { order: '7', authentication: 'email_otp', access_code: 'abc', locale: 'fr' };
    const text = (await bob.post(app, typed).expect(422)).text;
    assert.match(
      text,
      /role="alert"[^]*The request body is invalid\. The signing settings of bob\/x@example.com were not changed\./,
    );
    assert.match(text, /<a href="#settings-1-auth">Check before signing: a one-time code by e-mail needs/);
    assert.match(text, /<a href="#settings-1-code">Access code: must be 4 to 32 characters<\/a>/);
    assert.match(text, /<a href="#settings-1-locale">Language: must be a BCP 47 language tag<\/a>/);
    assert.match(text, /<a href="#settings-1-order">Signing order: must be from 1 to 100<\/a>/);
    const row = formOf(text, 1);
    assert.match(row, /^<details class="settings"\s+open>/);
    assert.match(
      row,
      /id="settings-1-auth-error">a one-time code by e-mail needs[^<]*give the Site’s signer one first</,
    );
    assert.match(row, /aria-describedby="settings-1-auth-hint settings-1-auth-error"\s+aria-invalid="true"/);
    assert.match(row, /<option value="email_otp"\s+selected>/, 'as chosen');
    assert.match(row, /value="7"\s+aria-invalid="true"/);
    assert.match(row, /value="abc"\s+autocomplete="off"\s+aria-invalid="true"/);
    assert.match(row, /<option value="fr"\s+selected>/);
    assert.match(row, /name="idempotency_key"\s+value="key-set-2"/, 'the same key for the corrected form');
    assert.doesNotMatch(formOf(text, 0), /aria-invalid|open>/, 'the other signer’s form as it was');
  });

  it('shows why a Request that is no longer a draft took no settings, without the form', async () => {
    const refused = apiProblem(
      409,
      'invalid_state',
      "A signer's order, authentication and locale are changed only while the Request is a draft; this one is sent.",
    );
    const text = (await form.post(appWith(form.answers(refused, SENT)), { order: '2' }).expect(409)).text;
    assert.match(
      text,
      /role="alert"[^]*changed only while the Request is a draft; this one is sent\. The signing/,
    );
    assert.doesNotMatch(text, /signer-settings/);
  });

  it('offers nothing of this on a Request that is not a draft', async () => {
    for (const view of [{ ...SENT, signers: [ANN_SET, BOB] }, requestView('completed')]) {
      const text = await form.show(view);
      assert.doesNotMatch(text, /signer-settings|Signing settings|settings-0-order|Order: 1/);
    }
  });

  it('names the signers without an order on a part-ordered draft, and only there', async () => {
    const text = await form.show(SETTINGS);
    assert.match(
      text,
      /<p class="notice" id="part-ordered">\s*Some signers have a signing order and this one has none:\s*<strong>bob\/x@example.com<\/strong>\. Give every signer an order, or remove them all, before sending/,
    );
    const three = { ...SETTINGS, signers: [ANN_SET, BOB, { ...BOB, signer_id: 'cy', signer_ref: 'ref-cy' }] };
    assert.match(await form.show(three), /these have none:\s*<strong>bob\/x@example.com, cy<\/strong>/);
    for (const view of [DRAFT, { ...DRAFT, signers: [ANN_SET, { ...BOB, order: 2 }] }])
      assert.doesNotMatch(await form.show(view), /part-ordered/);
  });

  it('names the signer the send refused for want of an order, linking to their order', async () => {
    const send = requestPageForm({
      action: 'send',
      call: `POST /v1.1/requests/${ID}/send`,
      shown: SETTINGS,
      hidden: {},
    });
    const refused = apiProblem(
      422,
      'send_preconditions_failed',
      'A Request needs at least one contract and one signer before sending.',
      {
        'signers[1].order': `signer "${ODD}" has no order and another signer has one: every signer needs one, or none (PATCH /v1.1/requests/:id/signers/:signer_id)`,
      },
    );
    const text = (await send.post(appWith(send.answers(refused)), {}).expect(422)).text;
    assert.match(
      text,
      /role="alert"[^]*The Request was not sent\. Every signer needs a signing order, or none does\.[^]*<a href="#settings-1-order">bob\/x@example.com has no signing order<\/a>, and another\s+signer\s+has one/,
    );
    assert.doesNotMatch(text, /needs at least one contract/, 'not the API’s general sentence');
    assert.match(formOf(text, 1), /^<details class="settings"\s+open>/, 'opened where the link leads');
    assert.doesNotMatch(formOf(text, 0), /open>/);
  });

  it('says in History which signing settings changed, and keeps the words of a contact correction', async () => {
    const event = (n: number, data: Record<string, unknown>) => ({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      type: 'request.signer_updated',
      created_at: `2030-01-02T10:0${n}:00.000Z`,
      site_id: 3,
      data: { request_id: ID, signer_id: ODD, signer_ref: 'ref-bob', ...data },
    });
    const text = await shown(SETTINGS, '', [
      event(4, { changed: ['order', 'locale'], corrected_by: 'owner@acme.test' }),
      event(3, { changed: ['authentication'] }),
      event(2, { changed: ['send_to', 'order'], link_replaced: false }),
      event(1, { changed: ['email'], link_replaced: true }),
      event(0, { link_replaced: false }),
    ]);
    const rows = [...text.matchAll(/<td>((?:Signing settings|Contact corrected)[^<]*)<\/td>/g)].map((m) =>
      m[1]!.replace(/\s+/g, ' '),
    );
    assert.deepEqual(rows, [
      `Contact corrected for ${ODD}`,
      `Contact corrected for ${ODD} (new link)`,
      `Contact corrected for ${ODD}; signing settings changed: order`,
      `Signing settings changed for ${ODD}: check before signing`,
      `Signing settings changed for ${ODD} by owner@acme.test: order, language`,
    ]);
  });
});
