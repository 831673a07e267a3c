import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { columnsOf } from '../../src/pages/template-entered.js';
import { apiProblem, appWith, contract, CURRENT } from '../support/fake-api.js';
import { flat, savedFile, showPage } from '../support/page-text.js';

const FIELDS = [
  { name: 'full_name', type: 'text' },
  { name: 'married', type: 'checkbox' },
];
const html = <T extends object>(c: T) => ({ ...c, html: '<p>Intake</p>' });
const TEMPLATE = html(contract(12, 'Intake', 'published', [], FIELDS));
const AT = '2030-01-02T10:00:00.000Z';
const sentRequest = (n: number, values: [string | null, boolean | null], filledAt: string | null) => ({
  request_id: `00000000-0000-4000-8000-00000000000${n}`,
  title: n === 1 ? '=cmd|calc' : null,
  state: filledAt === null ? 'sent' : 'completed',
  sent_at: '2030-01-01T09:00:00.000Z',
  completed_at: filledAt,
  fields: FIELDS.map((f, i) => ({
    name: f.name,
    type: f.type,
    assigned_to: 'ann@example.com',
    value: values[i]!,
    filled_at: filledAt,
  })),
});
const paged = (page: number, data: unknown[], hasMore: boolean) => ({
  page,
  per_page: 100,
  count: data.length,
  total_count: 101,
  has_more: hasMore,
  data,
});
const VALUES = (page: number) => `GET /v1.1/contracts/12/field_values?page=${page}&per_page=100`;
const answers = (more: Record<string, unknown> = {}) => ({
  'GET /v1.1/sessions/current': CURRENT,
  'GET /v1.1/contracts/12': TEMPLATE,
  ...more,
});

/** ADR 3780: what signers entered in a template's fields, one CSV row per sent Request. */
describe('web: a template’s field values as CSV (ADR 3780)', () => {
  it('is linked from a published template with fields, and not from a draft or one without fields', async () => {
    const page = flat(await showPage(appWith(answers()), '/app/templates/12'));
    assert.match(
      page,
      /<a href="\/app\/templates\/12\/field-values.csv" download >Download what signers entered, as CSV<\/a >/,
    );
    for (const other of [
      html(contract(12, 'Intake', 'draft', [], FIELDS)),
      html(contract(12, 'Intake', 'published', [])),
    ])
      assert.doesNotMatch(
        await showPage(appWith(answers({ 'GET /v1.1/contracts/12': other })), '/app/templates/12'),
        /field-values\.csv/,
      );
  });

  it('saves every page of the template’s Requests, a row each, the fields as columns', async () => {
    const app = appWith(
      answers({
        [VALUES(1)]: paged(1, [sentRequest(2, ['Pre Filled', null], null)], true),
        [VALUES(2)]: paged(2, [sentRequest(1, ['Ann Example', true], AT)], false),
      }),
    );
    const answer = await savedFile(app, '/app/templates/12/field-values.csv').expect(200);
    assert.equal(answer.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(
      answer.headers['content-disposition'],
      'attachment; filename="template-12-field-values.csv"',
    );
    const body = answer.body as string;
    assert.ok(
      body.startsWith('\uFEFFrequest_id,title,state,sent_at,completed_at,full_name,married\r\n'),
      body,
    );
    assert.deepEqual(parse(body, { bom: true }), [
      ['request_id', 'title', 'state', 'sent_at', 'completed_at', 'full_name', 'married'],
      ['00000000-0000-4000-8000-000000000002', '', 'sent', '2030-01-01T09:00:00.000Z', '', 'Pre Filled', ''],
      [
        '00000000-0000-4000-8000-000000000001',
        "'=cmd|calc",
        'completed',
        '2030-01-01T09:00:00.000Z',
        AT,
        'Ann Example',
        'true',
      ],
    ]);
    assert.deepEqual(
      app.calls.filter((c) => c.path.includes('field_values')).map((c) => c.path),
      [VALUES(1), VALUES(2)].map((k) => k.slice(4)),
    );
  });

  it('names a field called like one of the Request’s columns apart, so each column is named once', () => {
    assert.deepEqual(columnsOf(['full_name', 'title', 'field:title', 'state']), [
      'request_id',
      'title',
      'state',
      'sent_at',
      'completed_at',
      'full_name',
      'field:title',
      'field:field:title',
      'field:state',
    ]);
  });

  it('ends the download as failed when a later page is refused, rather than a file that looks whole', async () => {
    const app = appWith(
      answers({
        [VALUES(1)]: paged(1, [sentRequest(2, ['Pre Filled', null], null)], true),
        [VALUES(2)]: apiProblem(503, 'unavailable', 'Try again.'),
      }),
    );
    await assert.rejects(
      savedFile(app, '/app/templates/12/field-values.csv'),
      /aborted|socket hang up|ECONNRESET/,
    );
  });

  it('shows the API’s refusal as a page', async () => {
    const app = appWith(answers({ [VALUES(1)]: apiProblem(404, 'not_found', 'No such template.') }));
    assert.match(await showPage(app, '/app/templates/12/field-values.csv', 404), /No such template\./);
  });
});
