import assert from 'node:assert/strict';
import { apiProblem, appWith, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { ANN, BOB, DRAFT, SENT, shown } from '../support/draft-signers.js';
import { requestPageForm } from '../support/request-page.js';

const POST = `POST /v1.1/requests/${ID}/signers`;
const CY = { ...ANN, signer_id: 'cy', signer_ref: 'ref-cy', email: 'cy@example.com', order: null };
/** The form as a fresh page posts it, e-mail ticked. */
const FRESH = { idempotency_key: 'key-add-1', send_to_email: 'true' };

/**
 * **Add a signer** on a draft's page (ADR 3280), over the fake API: the form, the call it
 * makes, and the refusals beside its controls. Remove: request-remove-signer.test.ts.
 */
describe('web: adding a signer to a draft', () => {
  const add = requestPageForm({ action: 'add-signer', call: POST, shown: DRAFT, hidden: FRESH });

  it('offers Add a signer on a draft: New Request’s signer controls, the order, a check and a language', async () => {
    const text = await add.show(DRAFT);
    assert.match(
      text,
      /<section class="panel" aria-labelledby="add-signer-title">\s*<h3 id="add-signer-title">Add a signer<\/h3>/,
    );
    const form =
      /<form method="post" action="\/app\/requests\/[0-9a-f-]{36}\/add-signer" novalidate>[^]*?<\/form>/.exec(
        text,
      )?.[0] ?? '';
    assert.match(form, /name="_csrf" value="[^"]+"/);
    assert.match(form, /name="idempotency_key" value="[0-9a-f-]{36}"/);
    assert.match(
      form,
      /<label for="add-signer-id">Signer id<\/label>[^]*id="add-signer-id"\s+name="signer_id"\s+type="text"\s+value=""/,
    );
    assert.match(form, /id="add-signer-email"\s+name="email"\s+type="email"/);
    assert.match(form, /id="add-signer-mobile"\s+name="mobile_number"\s+type="tel"/);
    assert.match(
      form,
      /id="add-signer-by-email"\s+name="send_to_email"\s+value="true"\s+checked\s*\/>\s*Send by e-mail/,
    );
    assert.match(form, /id="add-signer-by-sms"\s+name="send_to_sms"\s+value="true"\s*\/>\s*Send by SMS/);
    assert.match(
      form,
      /id="add-signer-order"\s+name="order"\s+type="number"[^>]*value=""/,
      'empty: no order',
    );
    assert.match(form, /This draft’s signers have no signing order/);
    assert.match(
      form,
      /<select\s+id="add-signer-auth"\s+name="authentication"[^>]*>\s*<option value=""\s+selected>\s*None\s*<\/option>/,
    );
    assert.match(form, /<option value="access_code"\s*>\s*Access code you give them\s*<\/option>/);
    assert.match(form, /<option value="sms_otp"\s*>\s*One-time code by SMS\s*<\/option>/);
    assert.match(
      form,
      /id="add-signer-code"\s+name="access_code"\s+type="text"\s+value=""\s+autocomplete="off"/,
    );
    assert.match(
      form,
      /<select\s+id="add-signer-locale"\s+name="locale"[^>]*>\s*<option value=""\s+selected>\s*Site’s default\s*<\/option>/,
    );
    assert.match(form, /<option value="es"\s*>\s*Spanish \(es\)\s*<\/option>/);
    assert.match(form, /<button type="submit">Add signer<\/button>/);
    // In order: the next number is offered, and the numbers taken are said.
    const ordered = await add.show({
      ...DRAFT,
      signers: [
        { ...ANN, order: 1 },
        { ...BOB, order: 2 },
      ],
    });
    assert.match(ordered, /id="add-signer-order"\s+name="order"\s+type="number"[^>]*value="3"/);
    assert.match(ordered, /this draft’s signers have 1, 2\./);
  });

  it('offers neither Add a signer nor Remove on a Request that is not a draft', async () => {
    for (const view of [{ ...SENT, signers: [ANN, BOB] }, requestView('completed')]) {
      const text = await add.show(view);
      assert.doesNotMatch(text, /add-signer/);
      assert.doesNotMatch(text, /remove-signer/);
      assert.doesNotMatch(text, /Remove/);
    }
  });

  it('adds the signer as typed, with the form’s Idempotency-Key, and says so on the page it goes back to', async () => {
    const app = appWith(add.answers({ ...DRAFT, signers: [...DRAFT.signers, CY] }));
    const res = await add
      .post(app, {
        signer_id: ' cy ',
        email: 'cy@example.com',
        mobile_number: '2025550143',
        send_to_sms: 'true',
        order: '3',
        authentication: 'access_code',
        access_code: 'open sesame',
        locale: 'pt-BR',
      })
      .expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=signer-added&signer_id=cy`);
    // Only what was chosen: no contact, no order, no code without its method, no language.
    await add
      .post(app, {
        signer_id: 'di',
        send_to_email: '',
        authentication: 'email_otp',
        access_code: 'left over',
        idempotency_key: 'key-add-2',
      })
      .expect(303);
    assert.deepEqual(
      add.calls(app).map((c) => [c.method, c.path, c.body, c.idempotencyKey]),
      [
        [
          'POST',
          `/v1.1/requests/${ID}/signers`,
          {
            signer_id: 'cy',
            signer: { email: 'cy@example.com', mobile_number: '2025550143' },
            send_to: { email: true, mobile_number: true },
            order: 3,
            authentication: { method: 'access_code', access_code: 'open sesame' },
            locale: 'pt-BR',
          },
          'key-add-1',
        ],
        [
          'POST',
          `/v1.1/requests/${ID}/signers`,
          {
            signer_id: 'di',
            send_to: { email: false, mobile_number: false },
            authentication: { method: 'email_otp' },
          },
          'key-add-2',
        ],
      ],
    );
    const after = await shown(
      { ...DRAFT, signers: [...DRAFT.signers, CY] },
      '?done=signer-added&signer_id=cy',
    );
    assert.match(
      after,
      /<p class="success" role="status">\s*cy was added to this draft: their Execution URL becomes live when the Request is sent\.\s*Choose the fields they fill under <a href="#fields-title">Fields<\/a>\./,
    );
    const forged = await shown(DRAFT, '?done=signer-added&signer_id=cy');
    assert.doesNotMatch(forged, /was added/, 'not claimed for a signer the draft does not list');
  });

  it('refuses what the form can tell is wrong without asking the API', async () => {
    const app = appWith(add.answers(undefined));
    const text = (await add.post(app, { signer_id: '  ', order: '0' }).expect(422)).text;
    assert.deepEqual(add.calls(app), []);
    assert.match(text, /id="add-signer-id-error">Enter the signer id \(their e-mail address will do\)\.</);
    assert.match(
      text,
      /id="add-signer-order-error">Enter a whole number from 1 to 100, or leave it empty\.</,
    );
    assert.match(text, /<a href="#add-signer-order">Signing order: Enter a whole number/);
    assert.match(text, /No signer was added\./);
  });

  it('shows the API’s refusal beside each control, as typed, with a summary linking to them', async () => {
    const refused = apiProblem(422, 'invalid_body', 'The request body is invalid', {
      signer_id: '"ann@example.com" is already a signer of this Request',
      'signer.email': 'must be an e-mail address',
      order: 'must be absent: the other signers have no order, so this Request is not signed in order',
      'authentication.access_code': 'must be 4 to 32 characters',
      locale: 'must be a BCP 47 language tag',
      'signer.nickname': 'is not allowed',
    });
    const app = appWith(add.answers(refused));
    const typed = {
      signer_id: 'ann@example.com',
      email: 'ann at example',
      order: '2',
      authentication: 'access_code',
      access_code: 'abc',
      send_to_email: '',
      send_to_sms: 'true',
    };
    const text = (await add.post(app, typed).expect(422)).text;
    assert.match(text, /role="alert"[^]*The request body is invalid\. No signer was added\./);
    assert.match(
      text,
      /<a href="#add-signer-id">Signer id: &quot;ann@example.com&quot; is already a signer of this Request<\/a>/,
    );
    assert.match(text, /<a href="#add-signer-email">E-mail address: must be an e-mail address<\/a>/);
    assert.match(text, /<a href="#add-signer-order">Signing order: must be absent/);
    assert.match(text, /<a href="#add-signer-code">Access code: must be 4 to 32 characters<\/a>/);
    assert.match(text, /<li>signer.nickname: is not allowed<\/li>/, 'a path without a control said as it is');
    assert.match(
      text,
      /id="add-signer-id-error">&quot;ann@example.com&quot; is already a signer of this Request</,
    );
    assert.match(
      text,
      /id="add-signer-id"\s+name="signer_id"\s+type="text"\s+value="ann@example.com"\s+aria-invalid="true"/,
    );
    assert.match(
      text,
      /id="add-signer-email"\s+name="email"\s+type="email"\s+value="ann at example"\s+aria-invalid="true"\s+aria-describedby="add-signer-email-error"/,
    );
    assert.match(
      text,
      /value="2"\s+aria-invalid="true"\s+aria-describedby="add-signer-order-hint add-signer-order-error"/,
    );
    assert.match(text, /id="add-signer-code-error">must be 4 to 32 characters</);
    assert.match(text, /id="add-signer-locale-error">must be a BCP 47 language tag</);
    assert.match(text, /<option value="access_code"\s+selected>/, 'the check as chosen');
    assert.match(text, /id="add-signer-by-email"\s+name="send_to_email"\s+value="true"\s*\/>/, 'as posted');
    assert.match(text, /id="add-signer-by-sms"\s+name="send_to_sms"\s+value="true"\s+checked/, 'as posted');
    assert.match(text, /name="idempotency_key" value="key-add-1"/, 'the same key for the corrected form');
  });

  it('shows why a Request that is no longer a draft took no signer, without the form', async () => {
    const refused = apiProblem(409, 'invalid_state', 'Cannot add_signer a Request that is sent.');
    const app = appWith(add.answers(refused, SENT));
    const text = (await add.post(app, { signer_id: 'cy' }).expect(409)).text;
    assert.match(text, /role="alert"[^]*Cannot add_signer a Request that is sent\. No signer was added\./);
    assert.doesNotMatch(text, /id="add-signer-title"/);
  });
});
