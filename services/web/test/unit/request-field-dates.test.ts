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
/** A draft of a signature, the date it is signed on (ADR 3570) and a date to pick (ADR 3580). */
const DRAFT = {
  ...SENT,
  state: 'draft',
  sent_at: null,
  contracts: [1],
  signers: [ANN],
  fields: [
    { name: 'signature', assigned_to: 'ann@example.com', default_value: null },
    { name: 'signed_on', assigned_to: 'ann@example.com', default_value: null },
    { name: 'start_on', assigned_to: 'ann@example.com', default_value: '2030-02-01' },
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
    { name: 'start_on', type: 'date' },
  ],
);

describe('web: date fields, signed on (ADR 3570) and picked (ADR 3580)', () => {
  it('are declared in the template editor’s fields as "name: date_signed" and "name: date"', () => {
    assert.deepEqual(parseFields('signature: signature\nsigned_on: date_signed\nstart_on: date'), {
      fields: [
        { name: 'signature', type: 'signature' },
        { name: 'signed_on', type: 'date_signed' },
        { name: 'start_on', type: 'date' },
      ],
    });
    assert.deepEqual(parseFields('signed_on: day'), {
      error:
        'line 1 must be "name: type" with type text, checkbox, choice, date, signature, date_signed, initials, full_name or attachment',
    });
  });

  it('on a draft’s page: the date signed says what it will hold, a date is picked with its value', async () => {
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
    assert.match(page, /<input type="hidden" name="kind_2" value="date" \/>/);
    assert.match(
      page,
      /<input\s+type="date"\s+id="field-value-2"\s+name="value_2"\s+aria-label="Value: start_on"\s+value="2030-02-01"/,
    );
  });

  it('on a draft’s page: a date’s picker keeps to the fixed bounds its templates set (ADR 3620)', async () => {
    const bounded = (id: number, earliest: string, latest: string) =>
      contract(id, `Bounded ${id}`, 'published', [], [{ name: 'start_on', type: 'date', earliest, latest }]);
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      [`GET /v1.1/requests/${ID}`]: { ...DRAFT, contracts: [1, 4, 5] },
      [`GET /v1.1/requests/${ID}/events?order=desc&per_page=100`]: listPage([]),
      'GET /v1.1/contracts/1': AGREEMENT,
      'GET /v1.1/contracts/4': bounded(4, 'today-3', '2031-12-31'),
      'GET /v1.1/contracts/5': bounded(5, '2030-01-15', '2032-06-30'),
      'GET /v1.1/sites/3/contracts?page=1&per_page=100&state=published&archived=false': listPage([AGREEMENT]),
    });
    const page = (await request(app.callback).get(`/app/requests/${ID}`).set('Cookie', COOKIE).expect(200))
      .text;
    assert.match(
      page,
      /<input\s+type="date" min="2030-01-15" max="2031-12-31"\s+id="field-value-2"/,
      'the tightest fixed bounds; today-3 moves with the signer’s day, not the sender’s (ADR 3650)',
    );
  });
});
