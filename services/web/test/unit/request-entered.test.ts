import assert from 'node:assert/strict';
import { appWith, CURRENT, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { flat, showPage } from '../support/page-text.js';

const COMPLETED = {
  ...requestView('completed'),
  fields: [
    { name: 'full_name', assigned_to: 'ann@example.com', default_value: null },
    { name: 'married', assigned_to: 'ann@example.com', default_value: null },
    { name: 'spouse', assigned_to: 'ann@example.com', default_value: 'pre-filled' },
    { name: 'reference', assigned_to: null, default_value: null },
  ],
};
const AT = '2030-01-01T10:00:00.000Z';
const VALUES = {
  data: [
    { name: 'full_name', type: 'text', assigned_to: 'ann@example.com', value: 'Ann Example', filled_at: AT },
    { name: 'married', type: 'checkbox', assigned_to: 'ann@example.com', value: false, filled_at: AT },
    { name: 'spouse', type: 'text', assigned_to: 'ann@example.com', value: '', filled_at: AT },
    { name: 'reference', type: 'text', assigned_to: null, value: null, filled_at: null },
  ],
};
const answers = (more: Record<string, unknown> = {}) => ({
  'GET /v1.1/sessions/current': CURRENT,
  [`GET /v1.1/requests/${ID}`]: COMPLETED,
  ...more,
});

/** What the signers entered, on a Request's page (ADR 3730), over the fake API. */
describe('web: what the signers entered (ADR 3730)', () => {
  it('lists every field with its value, its signer and when they signed', async () => {
    const app = appWith(answers({ [`GET /v1.1/requests/${ID}/field_values`]: VALUES }));
    const text = flat(await showPage(app, `/app/requests/${ID}`));
    assert.match(text, /<h2 id="entered-title">What the signers entered<\/h2>/);
    const rows = [
      ...text.matchAll(
        /<tr> <td><code>([^<]+)<\/code><\/td><td>(.*?)<\/td><td>(.*?)<\/td><td>(.*?)<\/td> <\/tr>/g,
      ),
    ].map((m) => [
      m[1],
      m[2]!.replace(/<[^>]+>/g, ''),
      m[3]!.replace(/<[^>]+>/g, ''),
      m[4]!.replace(/<[^>]+>/g, ''),
    ]);
    assert.deepEqual(rows, [
      ['full_name', 'Ann Example', 'ann@example.com', '2030-01-01 10:00:00 UTC'],
      ['married', 'Not ticked', 'ann@example.com', '2030-01-01 10:00:00 UTC'],
      ['spouse', 'left empty', 'ann@example.com', '2030-01-01 10:00:00 UTC'],
      ['reference', 'none yet', 'nobody', 'not yet'],
    ]);
  });

  it('is not on a draft, nor when the API does not answer it', async () => {
    const draft = appWith(
      answers({
        [`GET /v1.1/requests/${ID}`]: { ...COMPLETED, state: 'draft', sent_at: null, completed_at: null },
        [`GET /v1.1/requests/${ID}/field_values`]: VALUES,
      }),
    );
    assert.doesNotMatch(await showPage(draft, `/app/requests/${ID}`), /entered-title/);
    assert.doesNotMatch(await showPage(appWith(answers()), `/app/requests/${ID}`), /entered-title/);
  });
});
