import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, COOKIE, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';

const PATCH = `PATCH /v1.1/requests/${ID}/signers/ann%40example.com`;

/** The sent Request with its one signer changed as `signer` says. */
const withSigner = (signer: Record<string, unknown>, state: 'sent' | 'completed' = 'sent') => {
  const view = requestView(state);
  return { ...view, signers: [{ ...view.signers[0]!, ...signer }] };
};

/** What the page showed of ann@example.com: her address, e-mail ticked. */
const WAS = { was_email: 'ann@example.com', was_mobile: '', was_send_to_email: 'true' };

describe('web: correcting how a signer of a sent Request is reached', () => {
  const { answers, show, post, calls } = requestPageForm({
    action: 'signer-contact',
    call: PATCH,
    shown: requestView('sent'),
    hidden: { signer_id: 'ann@example.com', ...WAS },
  });

  it('offers the form, prefilled and with its own Idempotency-Key, to a pending signer of a sent Request only', async () => {
    const page = await show(requestView('sent'));
    assert.match(page, /<summary>Correct contact<span class="visually-hidden"> of ann@example.com<\/span>/);
    assert.match(page, /<details class="contact"\s*>/, 'closed until opened');
    assert.match(page, /action="\/app\/requests\/[0-9a-f-]{36}\/signer-contact" novalidate/);
    assert.match(page, /id="contact-0-email"\s+name="email"\s+type="email"\s+value="ann@example.com"/);
    assert.match(page, /id="contact-0-mobile"\s+name="mobile_number"\s+type="tel"\s+value=""/);
    assert.match(page, /id="contact-0-by-email"\s+name="send_to_email"\s+value="true"\s+checked/);
    assert.match(page, /id="contact-0-by-sms"\s+name="send_to_sms"\s+value="true"\s+\/>/, 'SMS not ticked');
    assert.match(page, /id="contact-0-notify"\s+name="notify"\s+value="true"\s+checked/);
    assert.match(page, /name="notify"\s+value="true"\s+checked\s+\/>\s+Send the link to them now<\/label/);
    assert.equal(
      page.match(/name="idempotency_key" value="[0-9a-f-]{36}"/g)?.length,
      8,
      'Replace signer…, New link, Title, Expiry and reminders, Reassigning, CC and Copy to a new draft have their own',
    );
    assert.match(
      page,
      /<strong>Correct contact<\/strong>\s+changes\s+how\s+a\s+signer\s+who\s+has\s+not\s+signed\s+is\s+reached/,
    );
    assert.doesNotMatch(
      await show(requestView('completed')),
      /<details class="contact"/,
      'not on a finished Request',
    );
    const signed = await show(withSigner({ state: 'signed', signed_at: '2030-01-01T00:00:00.000Z' }));
    assert.doesNotMatch(signed, /<details class="contact"/, 'not for a signer who signed');
    assert.doesNotMatch(
      await show({ ...requestView('sent'), state: 'draft' }),
      /\/signer-contact" novalidate/,
      'a draft’s form is another one (ADR 3200)',
    );
  });

  it('sends the API what was typed and ticked, never an empty address, with the form’s Idempotency-Key', async () => {
    const app = appWith(answers(requestView('sent')));
    await post(app, {
      email: ' ann.lee@example.com ',
      mobile_number: '',
      send_to_email: 'true',
      notify: 'true',
      idempotency_key: 'key-1',
    }).expect(303);
    await post(app, {
      email: '',
      mobile_number: '555 555 0123',
      send_to_sms: 'true',
      idempotency_key: 'key-2',
    });
    await post(app, { send_to_email: 'true', idempotency_key: '' });
    assert.deepEqual(
      calls(app).map((c) => [c.body, c.idempotencyKey, c.bearer]),
      [
        [
          {
            signer: { email: 'ann.lee@example.com' },
            send_to: { email: true, mobile_number: false },
            notify: true,
          },
          'key-1',
          'at_test',
        ],
        [
          {
            signer: { mobile_number: '555 555 0123' },
            send_to: { email: false, mobile_number: true },
            notify: false,
          },
          'key-2',
          'at_test',
        ],
        [{ send_to: { email: true, mobile_number: false }, notify: false }, undefined, 'at_test'],
      ],
    );
  });

  it('says truly what happened: a new link only after a new address, sent only when asked and their turn', async () => {
    const redirect = async (answer: unknown, fields: Record<string, string>) =>
      (await post(appWith(answers(answer)), { send_to_email: 'true', ...fields }).expect(303)).headers
        .location;
    const moved = { email: 'ann.lee@example.com', request_url: 'http://127.0.0.1:8080/sign/new' };
    const at = (done: string) => `/app/requests/${ID}?done=${done}`;
    assert.equal(
      await redirect(withSigner({ ...moved, turn: true }), { notify: 'true' }),
      at('contact-new-link-sent'),
    );
    assert.equal(await redirect(withSigner({ ...moved, turn: true }), {}), at('contact-new-link'));
    assert.equal(
      await redirect(withSigner({ ...moved, turn: false }), { notify: 'true' }),
      at('contact-new-link'),
    );
    const sms = { mobile_number: '+15555550123', send_to: { email: true, mobile_number: true }, turn: true };
    assert.equal(
      await redirect(withSigner(sms), { notify: 'true', was_mobile: '+15555550123' }),
      at('contact-sent'),
      'channels alone keep the link',
    );
    assert.equal(await redirect(withSigner({ turn: true }), { notify: 'true' }), at('contact-same'));
    const app = appWith(answers(undefined));
    const shown = await request(app.callback)
      .get(at('contact-new-link-sent'))
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(shown.text, /They have a new Execution URL \(below\), and it is being sent to them/);
    const same = await request(app.callback).get(at('contact-same')).set('Cookie', COOKIE).expect(200);
    assert.match(same.text, /already as given: nothing was changed or sent/);
  });

  it('shows each refusal beside its field, keeping what was typed and the Idempotency-Key', async () => {
    const refused = apiProblem(422, 'validation_failed', 'The body is not valid.', {
      'signer.email': 'must be an e-mail address',
      'signer.mobile_number': 'must be a US mobile number',
      'send_to.mobile_number': 'needs a mobile number',
    });
    const app = appWith(answers(refused));
    const res = await post(app, {
      email: 'not an address',
      mobile_number: '+1 416 555 0123',
      send_to_sms: 'true',
      idempotency_key: 'key-typed',
    }).expect(422);
    const page = res.text;
    assert.match(page, /<details class="contact"\s+open>/);
    assert.match(page, /<p class="error" id="contact-0-email-error">must be an e-mail address<\/p>/);
    assert.match(
      page,
      /id="contact-0-email"\s+name="email"\s+type="email"\s+value="not an address"\s+aria-invalid="true"\s+aria-describedby="contact-0-email-error"/,
    );
    assert.match(page, /id="contact-0-mobile-error">must be a US mobile number</);
    assert.match(page, /value="\+1 416 555 0123"\s+aria-invalid="true"/);
    assert.match(page, /id="contact-0-by-sms-error">needs a mobile number</);
    assert.match(page, /id="contact-0-by-sms"\s+name="send_to_sms"\s+value="true"\s+checked/, 'as ticked');
    assert.match(page, /id="contact-0-by-email"\s+name="send_to_email"\s+value="true"\s+\/>/, 'as unticked');
    assert.match(page, /id="contact-0-notify"\s+name="notify"\s+value="true"\s+\/>/, 'as unticked');
    assert.match(page, /name="idempotency_key" value="key-typed"/);
    assert.match(page, /role="alert"[^]*The contact details of ann@example.com were not corrected\./);
    assert.match(page, /<a href="#contact-0-email">E-mail address: must be an e-mail address<\/a>/);
    assert.match(page, /<a href="#contact-0-mobile">Mobile number: must be a US mobile number<\/a>/);
  });

  it('shows a conflict or an unknown signer as the page’s error notice', async () => {
    const conflict = apiProblem(409, 'invalid_state', 'The signer has signed already.');
    const signed = await post(appWith(answers(conflict)), { email: 'a@example.com' }).expect(409);
    assert.match(signed.text, /role="alert"[^]*The signer has signed already\./);
    const unknown = apiProblem(404, 'not_found', 'There is no signer nobody@example.com.');
    const app = appWith({ ...answers(undefined), [`${PATCH.replace('ann', 'nobody')}`]: unknown });
    const gone = await post(app, { signer_id: 'nobody@example.com', email: 'a@example.com' }).expect(404);
    assert.match(gone.text, /There is no signer nobody@example.com\./);
    assert.doesNotMatch(gone.text, /<details class="contact"\s+open>/);
  });
});
