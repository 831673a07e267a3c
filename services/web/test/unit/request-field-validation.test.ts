import assert from 'node:assert/strict';
import request from 'supertest';
import {
  appWith,
  contract,
  COOKIE,
  CURRENT,
  page as listPage,
  REQUEST_ID as ID,
  requestView,
} from '../support/fake-api.js';
import { fieldsText, parseFields } from '../../src/template-text.js';
import { inEditor } from '../../src/pages/template-editor.js';

const SENT = requestView('sent');
const ANN = SENT.signers[0]!;
/** A draft whose text fields ask for a ZIP code, a phone number (ADR 3600) and an IBAN (ADR 3690). */
const DRAFT = {
  ...SENT,
  state: 'draft',
  sent_at: null,
  contracts: [1, 2],
  signers: [ANN],
  fields: [
    { name: 'zip', assigned_to: 'ann@example.com', default_value: '12345' },
    { name: 'phone', assigned_to: 'ann@example.com', default_value: null },
    { name: 'note', assigned_to: 'ann@example.com', default_value: null },
    { name: 'iban', assigned_to: 'ann@example.com', default_value: null },
  ],
};
const FORM = contract(
  1,
  'Form',
  'published',
  [],
  [
    { name: 'zip', type: 'text', validation: 'zip_code' },
    { name: 'phone', type: 'text', validation: 'phone_number' },
    { name: 'note', type: 'text' },
    { name: 'iban', type: 'text', validation: 'iban' },
  ],
);
/** A second contract naming `phone` as plain text: the first one's kind still holds. */
const ANNEX = contract(2, 'Annex', 'published', [], [{ name: 'phone', type: 'text', max_length: 20 }]);

describe('web: text fields that ask for a kind of value (ADR 3600)', () => {
  it('are declared in the template editor as "name: text kind", written back the same way', () => {
    const typed = 'zip: text zip_code\nmail: text email_address\nnote: text';
    assert.deepEqual(parseFields(typed), {
      fields: [
        { name: 'zip', type: 'text', validation: 'zip_code' },
        { name: 'mail', type: 'text', validation: 'email_address' },
        { name: 'note', type: 'text' },
      ],
    });
    const parsed = parseFields(typed);
    assert.equal('fields' in parsed && fieldsText(parsed.fields), typed);
    assert.deepEqual(parseFields('ok: checkbox zip_code'), {
      error: 'line 1: only a text field asks for a kind of value, as in "zip: text zip_code"',
    });
    assert.deepEqual(parseFields('a: text\nzip: text postcode'), {
      error:
        'line 2: "postcode" is not known: after the type write a text field\'s kind of value (email_address, numbers_only, phone_number, zip_code, letters_only, ssn, ein, bank_routing_number, uk_postcode, ca_postal_code, iban, vat_number), "format" and its format, or "min" and "max" and their limits, a date\'s "from" or "to" and a date, "optional", "conceal" or, for a checkbox, "required"',
    });
    const draft = { ...FORM, state: 'draft', html: '<p>x</p>' } as unknown as Parameters<typeof inEditor>[0];
    assert.equal(inEditor(draft), true, 'the editor shows and keeps the kind');
  });

  it('on a draft’s page: each value is typed with the keyboard its kind needs', async () => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`GET /v1.1/requests/${ID}`]: DRAFT,
      [`GET /v1.1/requests/${ID}/events?order=desc&per_page=100`]: listPage([]),
      'GET /v1.1/contracts/1': FORM,
      'GET /v1.1/contracts/2': ANNEX,
      'GET /v1.1/sites/3/contracts?page=1&per_page=100&state=published&archived=false': listPage([
        FORM,
        ANNEX,
      ]),
    });
    const page = (await request(app.callback).get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200))
      .text;
    assert.match(
      page,
      /<input\s+type="text" inputmode="numeric"\s+id="field-value-0"\s+name="value_0"[^>]*value="12345"/,
    );
    assert.match(page, /<input\s+type="tel"\s+id="field-value-1"\s+name="value_1"[^>]*maxlength="20"/);
    assert.match(page, /<input\s+type="text"\s+id="field-value-2"\s+name="value_2"/);
    // A code is typed as written: in capitals, without spelling fixes (ADR 3690).
    assert.match(
      page,
      /<input\s+type="text" autocapitalize="characters" spellcheck="false"\s+id="field-value-3"\s+name="value_3"/,
    );
  });
});
