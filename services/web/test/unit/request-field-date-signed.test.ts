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
import { parseFields } from '../../src/template-text.js';

const SENT = requestView('sent');
const ANN = SENT.signers[0]!;
/** A draft whose only fields are a signature and the date it is signed on (ADR 3570). */
const DRAFT = {
  ...SENT,
  state: 'draft',
  sent_at: null,
  contracts: [1],
  signers: [ANN],
  fields: [
    { name: 'signature', assigned_to: 'ann@example.com', default_value: null },
    { name: 'signed_on', assigned_to: 'ann@example.com', default_value: null },
  ],
};
const AGREEMENT = contract(
  1,
  'Agreement',
  'published',
  [],
  [
    { name: 'signature', type: 'signature' },
    { name: 'signed_on', type: 'date_signed' },
  ],
);

describe('web: a field holding the date its signer signs on (ADR 3570)', () => {
  it('is declared in the template editor’s fields as "name: date_signed"', () => {
    assert.deepEqual(parseFields('signature: signature\nsigned_on: date_signed'), {
      fields: [
        { name: 'signature', type: 'signature' },
        { name: 'signed_on', type: 'date_signed' },
      ],
    });
    assert.deepEqual(parseFields('signed_on: date'), {
      error: 'line 1 must be "name: type" with type text, checkbox, signature or date_signed',
    });
  });

  it('has no value on a draft’s page: it says what it will hold, and no value is asked of the draft', async () => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`GET /v1.1/requests/${ID}`]: DRAFT,
      [`GET /v1.1/requests/${ID}/events?order=desc&per_page=100`]: listPage([]),
      'GET /v1.1/contracts/1': AGREEMENT,
      'GET /v1.1/sites/3/contracts?page=1&per_page=100&state=published&archived=false': listPage([AGREEMENT]),
    });
    const page = (await request(app.callback).get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200))
      .text;
    assert.match(page, /<span class="hint">the date the signer signs on<\/span>/);
    assert.doesNotMatch(page, /name="(value|kind)_1"/);
    assert.doesNotMatch(page, /A value pre-fills the field/, 'no field of the draft takes a value');
  });
});
