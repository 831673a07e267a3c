import assert from 'node:assert/strict';
import { apiProblem, appWith, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';

const PATCH = `PATCH /v1.1/requests/${ID}`;
const SENT = requestView('sent');
const BOB = { ...SENT.signers[0]!, signer_id: 'bob', signer_ref: 'ref-bob', email: null };
const DRAFT = {
  ...SENT,
  state: 'draft',
  sent_at: null,
  signers: [SENT.signers[0]!, BOB],
  fields: [
    { name: 'full_name', assigned_to: 'ann@example.com', default_value: 'Ann' },
    { name: 'agree', assigned_to: null, default_value: true },
  ],
};
/** What the page's form carries for DRAFT as shown. */
const SHOWN = {
  field_0: 'full_name',
  assigned_to_0: 'ann@example.com',
  field_1: 'agree',
  assigned_to_1: '',
};

/** A draft's field assignments on its page (ADR 3220), over the fake API. */
describe('web: assigning a draft’s fields', () => {
  const { answers, show, post, calls } = requestPageForm({
    action: 'fields',
    call: PATCH,
    shown: DRAFT,
    hidden: { idempotency_key: 'key-1' },
  });

  it('makes each field’s signer a choice on a draft, saying how many are unassigned', async () => {
    const page = await show(DRAFT);
    assert.match(page, /<h2 id="fields-title">Fields<\/h2>/);
    assert.match(page, /<strong>1 unassigned<\/strong>/);
    assert.match(page, /action="\/app\/requests\/[0-9a-f-]{36}\/fields" novalidate/);
    assert.match(
      page,
      /<select\s+id="field-signer-1"\s+name="assigned_to_1"\s+aria-label="Assigned to: agree"\s*>\s*<option value=""\s+selected>Unassigned/,
    );
    assert.match(page, /<option value="ann@example.com"\s+selected>\s*ann@example.com\s*<\/option>/);
    assert.match(page, /<button type="submit" class="secondary">Save fields<\/button>/);
    const sent = await show({ ...SENT, fields: DRAFT.fields });
    assert.doesNotMatch(sent, /<select name="assigned_to_/, 'fixed once sent');
    assert.match(sent, /<span class="error">unassigned<\/span>/);
  });

  it('sends every field, its value as it is and its signer as chosen, with the form’s Idempotency-Key', async () => {
    const app = appWith(answers(DRAFT));
    const res = await post(app, { ...SHOWN, assigned_to_1: 'bob' }).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=fields`);
    assert.deepEqual(
      calls(app).map((c) => [c.body, c.idempotencyKey]),
      [
        [
          {
            fields: [
              { name: 'full_name', assigned_to: 'ann@example.com', default_value: 'Ann' },
              { name: 'agree', assigned_to: 'bob', default_value: true },
            ],
          },
          'key-1',
        ],
      ],
    );
  });

  it('asks nothing when every field keeps its signer, and shows a refusal with what was chosen', async () => {
    const same = appWith(answers(undefined));
    const unchanged = await post(same, SHOWN).expect(303);
    assert.equal(unchanged.headers.location, `/app/requests/${ID}?done=fields-same`);
    assert.deepEqual(calls(same), []);

    const refused = appWith(
      answers(apiProblem(409, 'invalid_state', 'fields can be changed only while the Request is a draft.')),
    );
    const page = await post(refused, { ...SHOWN, assigned_to_1: 'bob' }).expect(409);
    assert.match(
      page.text,
      /fields can be changed only while the Request is a draft\. The fields were not changed\./,
    );
    assert.match(page.text, /<option value="bob"\s+selected>/, 'as chosen');
  });
});
