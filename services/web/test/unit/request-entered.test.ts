import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { fieldValuesCsv } from '../../src/pages/request-entered.js';
import { apiProblem, appWith, CURRENT, REQUEST_ID as ID, requestView } from '../support/fake-api.js';
import { flat, savedFile, showPage } from '../support/page-text.js';

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

/** The same values saved as a CSV file (ADR 3750). */
describe('web: what the signers entered, as CSV (ADR 3750)', () => {
  it('is linked from the section and saves every field with its value', async () => {
    const app = appWith(answers({ [`GET /v1.1/requests/${ID}/field_values`]: VALUES }));
    const page = flat(await showPage(app, `/app/requests/${ID}`));
    assert.match(
      page,
      new RegExp(`<a href="/app/requests/${ID}/field-values.csv" download >Download as CSV`),
    );
    const answer = await savedFile(app, `/app/requests/${ID}/field-values.csv`).expect(200);
    assert.equal(answer.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(
      answer.headers['content-disposition'],
      `attachment; filename="request-${ID.slice(0, 8)}-field-values.csv"`,
    );
    assert.equal(answer.headers['cache-control'], 'no-store');
    const body = answer.body as string;
    assert.ok(body.startsWith('\uFEFFfield,type,signer,value,signed_at\r\n'), body);
    assert.deepEqual(parse(body, { bom: true }), [
      ['field', 'type', 'signer', 'value', 'signed_at'],
      ['full_name', 'text', 'ann@example.com', 'Ann Example', AT],
      ['married', 'checkbox', 'ann@example.com', 'false', AT],
      ['spouse', 'text', 'ann@example.com', '', AT],
      ['reference', 'text', '', '', ''],
    ]);
  });

  it('quotes what needs quoting and never writes a cell a spreadsheet would run', () => {
    const csv = fieldValuesCsv([
      {
        name: 'note',
        type: 'text',
        assigned_to: 'ann@example.com',
        value: '=HYPERLINK("http://x")',
        filled_at: AT,
      },
      { name: 'phone', type: 'text', assigned_to: 'ann@example.com', value: '+1 555 0100', filled_at: AT },
      {
        name: 'address',
        type: 'text',
        assigned_to: 'ann@example.com',
        value: 'Flat 2, "The Mews"\nLeeds',
        filled_at: AT,
      },
      { name: 'name', type: 'text', assigned_to: 'ann@example.com', value: 'José Núñez', filled_at: AT },
    ]);
    const rows: string[][] = parse(csv, { bom: true });
    assert.deepEqual(
      rows.slice(1).map((row) => row[3]),
      ['\'=HYPERLINK("http://x")', "'+1 555 0100", 'Flat 2, "The Mews"\nLeeds', 'José Núñez'],
    );
  });

  it('shows the API refusal as a page', async () => {
    const app = appWith(
      answers({
        [`GET /v1.1/requests/${ID}/field_values`]: apiProblem(404, 'not_found', 'No such Request.'),
      }),
    );
    const page = await showPage(app, `/app/requests/${ID}/field-values.csv`, 404);
    assert.match(page, /No such Request\./);
  });
});
