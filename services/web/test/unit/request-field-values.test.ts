import assert from 'node:assert/strict';
import request from 'supertest';
import {
  apiProblem,
  appWith,
  contract,
  COOKIE,
  page as listPage,
  REQUEST_ID as ID,
  requestView,
} from '../support/fake-api.js';
import { requestPageForm } from '../support/request-page.js';

const PATCH = `PATCH /v1.1/requests/${ID}`;
const SENT = requestView('sent');
const ANN = SENT.signers[0]!;
const BOB = { ...ANN, signer_id: 'bob', signer_ref: 'ref-bob', email: null };
/** A draft of two contracts: a text, a checkbox, a choice and a signature field. */
const DRAFT = {
  ...SENT,
  state: 'draft',
  sent_at: null,
  contracts: [1, 2],
  signers: [ANN, BOB],
  fields: [
    { name: 'full_name', assigned_to: 'ann@example.com', default_value: 'Ann' },
    { name: 'agree', assigned_to: 'ann@example.com', default_value: true },
    { name: 'plan', assigned_to: 'bob', default_value: null },
    { name: 'signature', assigned_to: 'ann@example.com', default_value: null },
  ],
};
/** The draft's templates: `full_name` is on both, the smaller limit and the larger minimum apply. */
const CONTRACTS = {
  'GET /v1.1/contracts/1': contract(
    1,
    'Agreement',
    'published',
    [],
    [
      { name: 'full_name', type: 'text', min_length: 3, max_length: 40 },
      { name: 'agree', type: 'checkbox' },
      { name: 'signature', type: 'signature' },
    ],
  ),
  'GET /v1.1/contracts/2': contract(
    2,
    'Order',
    'published',
    [],
    [
      { name: 'plan', type: 'choice', options: ['basic', 'pro & more'] },
      { name: 'full_name', type: 'text', min_length: 2, max_length: 30 },
    ],
  ),
};
/** The Site's published templates, as a draft's page reads them (its contracts are named from them). */
const LISTED = {
  ...CONTRACTS,
  'GET /v1.1/sites/3/contracts?page=1&per_page=100&state=published&archived=false': listPage(
    Object.values(CONTRACTS),
  ),
};
/** What the page's form carries for DRAFT as shown (a signature has no value control). */
const SHOWN = {
  field_0: 'full_name',
  assigned_to_0: 'ann@example.com',
  kind_0: 'text',
  value_0: 'Ann',
  field_1: 'agree',
  assigned_to_1: 'ann@example.com',
  kind_1: 'checkbox',
  value_1: 'true',
  field_2: 'plan',
  assigned_to_2: 'bob',
  kind_2: 'choice',
  value_2: '',
  field_3: 'signature',
  assigned_to_3: 'ann@example.com',
};

/** A draft's field values edited on its page (ADR 3220 follow-up), over the fake API. */
describe('web: editing a draft’s field values', () => {
  const form = requestPageForm({
    action: 'fields',
    call: PATCH,
    shown: DRAFT,
    hidden: { idempotency_key: 'key-1' },
  });
  /** The fake API with the draft's templates, answering `answer` to the PATCH. */
  const answers = (answer: unknown, shown: unknown = DRAFT) => ({
    ...form.answers(answer, shown),
    ...LISTED,
  });
  const show = async (view: unknown, query = '') => {
    const app = appWith(answers(undefined, view));
    const res = await request(app.callback)
      .get(`/app/requests/${ID}${query}`)
      .set('Cookie', COOKIE)
      .expect(200);
    return { text: res.text, calls: app.calls.map((c) => `${c.method} ${c.path}`) };
  };
  /** The PATCH bodies `app` sent, with their Idempotency-Keys. */
  const patches = (app: ReturnType<typeof appWith>) => form.calls(app).map((c) => [c.body, c.idempotencyKey]);

  it('gives each field a Value control by its template’s kind, reading each template once', async () => {
    const { text: page, calls } = await show(DRAFT);
    assert.deepEqual(calls.filter((c) => c.startsWith('GET /v1.1/contracts/')).sort(), [
      'GET /v1.1/contracts/1',
      'GET /v1.1/contracts/2',
    ]);
    // Text: the larger of the two templates' minimums, the smaller of their limits.
    assert.match(
      page,
      /<input\s+type="text"\s+id="field-value-0"\s+name="value_0"\s+aria-label="Value: full_name"\s+value="Ann"\s+minlength="3" maxlength="30"\s*\/>/,
    );
    assert.match(page, /<input type="hidden" name="kind_0" value="text" \/>/);
    // Checkbox: (none), Checked, Unchecked; the value true is Checked.
    const agree =
      /<select id="field-value-1" name="value_1" aria-label="Value: agree"\s*>([\s\S]*?)<\/select>/.exec(
        page,
      );
    assert.ok(agree, 'a select for the checkbox');
    assert.deepEqual(
      [...agree[1]!.matchAll(/<option value="([^"]*)"\s*( selected)?>([^<]*)<\/option>/g)].map((m) => [
        m[1],
        m[2] !== undefined,
        m[3],
      ]),
      [
        ['', false, '(none)'],
        ['true', true, 'Checked'],
        ['false', false, 'Unchecked'],
      ],
    );
    // Choice: (none) then its options, escaped; no value yet.
    const plan =
      /<select id="field-value-2" name="value_2" aria-label="Value: plan"\s*>([\s\S]*?)<\/select>/.exec(page);
    assert.ok(plan, 'a select for the choice');
    assert.deepEqual(
      [...plan[1]!.matchAll(/<option value="([^"]*)"\s*( selected)?>([^<]*)<\/option>/g)].map((m) => [
        m[1],
        m[2] !== undefined,
        m[3],
      ]),
      [
        ['', true, '(none)'],
        ['basic', false, 'basic'],
        ['pro &amp; more', false, 'pro &amp; more'],
      ],
    );
    // Signature: signed, never pre-filled.
    assert.doesNotMatch(page, /name="(value|kind)_3"/);
    assert.match(page, /<span class="hint">signed by the signer<\/span>/);
    assert.match(page, /A value pre-fills the field on its signer’s page/);
  });

  it('sends the values as typed, a boolean for a checkbox and strings otherwise, with the signers chosen', async () => {
    const app = appWith(answers(DRAFT));
    const res = await form
      .post(app, {
        ...SHOWN,
        value_0: ' Ann Lee ',
        value_1: 'false',
        value_2: 'pro & more',
        assigned_to_3: 'bob',
      })
      .expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=fields`);
    assert.deepEqual(patches(app), [
      [
        {
          fields: [
            { name: 'full_name', assigned_to: 'ann@example.com', default_value: ' Ann Lee ' },
            { name: 'agree', assigned_to: 'ann@example.com', default_value: false },
            { name: 'plan', assigned_to: 'bob', default_value: 'pro & more' },
            { name: 'signature', assigned_to: 'bob' },
          ],
        },
        'key-1',
      ],
    ]);
    assert.deepEqual(
      app.calls.filter((c) => c.path.startsWith('/v1.1/contracts/')),
      [],
      'the form says each field’s kind: no template is read to save it',
    );
    const checked = appWith(answers(DRAFT));
    await form.post(checked, { ...SHOWN, value_1: 'true', value_2: 'basic' }).expect(303);
    assert.deepEqual((form.calls(checked)[0]!.body as { fields: unknown[] }).fields.slice(1, 3), [
      { name: 'agree', assigned_to: 'ann@example.com', default_value: true },
      { name: 'plan', assigned_to: 'bob', default_value: 'basic' },
    ]);
  });

  it('leaves default_value out for an emptied text box and “(none)”', async () => {
    const app = appWith(answers(DRAFT));
    await form.post(app, { ...SHOWN, value_0: '', value_1: '' }).expect(303);
    assert.deepEqual(patches(app), [
      [
        {
          fields: [
            { name: 'full_name', assigned_to: 'ann@example.com' },
            { name: 'agree', assigned_to: 'ann@example.com' },
            { name: 'plan', assigned_to: 'bob' },
            { name: 'signature', assigned_to: 'ann@example.com' },
          ],
        },
        'key-1',
      ],
    ]);
  });

  it('asks nothing when every value and signer is as it was, an empty value kept empty', async () => {
    const same = appWith(answers(undefined));
    const res = await form.post(same, SHOWN).expect(303);
    assert.equal(res.headers.location, `/app/requests/${ID}?done=fields-same`);
    assert.deepEqual(form.calls(same), []);

    const empty = {
      ...DRAFT,
      fields: [{ ...DRAFT.fields[0]!, default_value: '' }, ...DRAFT.fields.slice(1)],
    };
    const kept = appWith(answers(undefined, empty));
    await form.post(kept, { ...SHOWN, value_0: '' }).expect(303);
    assert.deepEqual(form.calls(kept), [], 'an empty text value shows as an empty box and stays');

    const { text } = await show(DRAFT, '?done=fields');
    assert.match(
      text,
      /<p class="success" role="status">The fields were saved: their signers and values\.<\/p>/,
    );
  });

  it('shows a refusal of a value beside its control, as typed, with the summary linking to it', async () => {
    const refused = appWith(
      answers(
        apiProblem(422, 'invalid_body', 'Invalid request body', {
          'fields[0].default_value': 'must be at most 30 characters: the limit of text field "full_name"',
          'fields[2].assigned_to': 'no signer of this Request has signer_id "carl"',
        }),
      ),
    );
    const typed = 'A name "far" <too> long for the field';
    const page = (
      await form.post(refused, { ...SHOWN, value_0: typed, value_1: 'false', value_2: 'basic' }).expect(422)
    ).text;
    assert.match(page, /Invalid request body\. The fields were not changed\./);
    assert.match(
      page,
      /<p class="error" id="field-value-0-error">must be at most 30 characters: the limit of text field &quot;full_name&quot;<\/p>\s*<input\s+type="text"\s+id="field-value-0"\s+name="value_0"\s+aria-label="Value: full_name"\s+value="A name &quot;far&quot; &lt;too&gt; long for the field"\s+minlength="3" maxlength="30" aria-invalid="true" aria-describedby="field-value-0-error"\s*\/>/,
    );
    assert.match(page, /<a href="#field-value-0">Value: full_name must be at most 30 characters/);
    assert.match(page, /<a href="#field-signer-2">Assigned to: plan no signer of this Request/);
    assert.match(
      page,
      /<p class="error" id="field-signer-2-error">no signer of this Request has signer_id &quot;carl&quot;<\/p>\s*<select\s+id="field-signer-2"\s+name="assigned_to_2"\s+aria-label="Assigned to: plan"\s+aria-invalid="true" aria-describedby="field-signer-2-error"\s*>/,
    );
    // What was chosen is kept too.
    assert.match(page, /<option value="false"\s+selected>Unchecked<\/option>/);
    assert.match(page, /<option value="basic"\s+selected>basic<\/option>/);
    assert.match(page, /name="idempotency_key" value="key-1"/, 'the same key for the corrected form');
  });

  it('shows a sent Request’s values read-only, reading each template only for its name', async () => {
    const { text: page, calls } = await show({
      ...SENT,
      contracts: [1, 2],
      signers: [ANN, BOB],
      fields: DRAFT.fields,
    });
    assert.doesNotMatch(page, /name="(value|kind)_\d+"/);
    assert.doesNotMatch(page, /aria-label="Value: /);
    assert.match(page, /<td>full_name<\/td>\s*<td>\s*ann@example.com\s*<\/td>\s*<td>\s*Ann\s*<\/td>/);
    assert.match(page, /<td>agree<\/td>\s*<td>\s*ann@example.com\s*<\/td>\s*<td>\s*true\s*<\/td>/);
    assert.deepEqual(calls.filter((c) => c.startsWith('GET /v1.1/contracts/')).sort(), [
      'GET /v1.1/contracts/1',
      'GET /v1.1/contracts/2',
    ]);
    assert.match(
      page,
      /<dt>Contracts<\/dt>\s*<dd><a href="\/app\/templates\/1">Agreement<\/a>, <a href="\/app\/templates\/2">Order<\/a><\/dd>/,
    );
  });

  it('keeps a draft’s values as they are when its templates cannot be read', async () => {
    const app = appWith(form.answers(undefined, DRAFT));
    const page = (await request(app.callback).get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200))
      .text;
    assert.doesNotMatch(page, /name="(value|kind)_\d+"/);
    assert.match(
      page,
      /The templates’ fields could not be read just now, so their values are kept as they are\./,
    );
    assert.match(
      page,
      /<select\s+id="field-signer-0"\s+name="assigned_to_0"\s+aria-label="Assigned to: full_name"\s*>/,
    );
  });
});
