import assert from 'node:assert/strict';
import { apiProblem, appWith, bulkSendSummary, callsOf, CURRENT, page } from '../support/fake-api.js';
import { showPage } from '../support/page-text.js';

const LIST = 'GET /v1.1/sites/3/bulk_sends?page=1&per_page=50';
const RUNNING_ID = 'b7a1c2d3-0000-4000-8000-000000000002';
const DONE_ID = 'c8b2d3e4-0000-4000-8000-000000000001';

const RUNNING = bulkSendSummary(RUNNING_ID, {
  state: 'running',
  send: false,
  test_mode: true,
  rows_total: 250,
  created: 120,
  sent: 0,
  failed: 2,
  contracts: [
    { id: 12, name: 'NDA <2030>' },
    { id: 13, name: 'Annex' },
  ],
  created_at: '2030-01-03T10:00:00.000Z',
  completed_at: null,
});
const DONE = bulkSendSummary(DONE_ID);

const answers = (more: Record<string, unknown>) => ({ 'GET /v1.1/sessions/current': CURRENT, ...more });
/** The table's rows, each as its cells' HTML with each run of white space as one space. */
const rowsOf = (text: string): string[][] =>
  [...text.matchAll(/<tr>([^]*?)<\/tr>/g)]
    .slice(1)
    .map((row) =>
      [...row[1]!.matchAll(/<td>([^]*?)<\/td>/g)].map((cell) => cell[1]!.replace(/\s+/g, ' ').trim()),
    );

/** `/app/bulk-sends` (ADR 3440), over the fake API. */
describe('web: the Site’s bulk sends', () => {
  it('asks the API for the current Site’s first 50, and says whose they are', async () => {
    const app = appWith(answers({ [LIST]: page([RUNNING, DONE]) }));
    const text = await showPage(app, '/app/bulk-sends');
    assert.deepEqual(
      callsOf(app, 'GET').map(([path]) => path),
      ['/v1.1/sessions/current', '/v1.1/sites/3/bulk_sends?page=1&per_page=50'],
    );
    assert.match(text, /<title>Bulk sends/);
    assert.match(text, /<h1>Bulk sends <span class="hint">on Production<\/span><\/h1>/);
    assert.match(
      text,
      /<a href="\/app\/requests"\s+aria-current="page"\s*>Requests<\/a\s*>/,
      'Requests in the nav',
    );
    assert.match(text, /<a class="button" href="\/app\/bulk-sends\/new">Bulk send from a CSV file<\/a>/);
    assert.match(text, /<caption class="visually-hidden">Bulk sends of Production, newest first<\/caption>/);
    assert.match(
      text,
      /<th scope="col">Started<\/th>\s*<th scope="col">Templates<\/th>\s*<th scope="col">Rows<\/th>\s*<th scope="col">Made<\/th>\s*<th scope="col">Sent<\/th>\s*<th scope="col">Failed<\/th>\s*<th scope="col">Cancelled<\/th>\s*<th scope="col">State<\/th>/,
    );
  });

  it('shows each one in counts, newest first, linking to its progress page by its start time', async () => {
    const text = await showPage(appWith(answers({ [LIST]: page([RUNNING, DONE]) })), '/app/bulk-sends');
    const [running, done] = rowsOf(text);
    assert.deepEqual(running, [
      `<a href="/app/bulk-sends/${RUNNING_ID}" ><time datetime="2030-01-03T10:00:00.000Z">2030-01-03 10:00:00 UTC</time><span class="visually-hidden"> (bulk send ${RUNNING_ID})</span></a ><br /><code class="hint">b7a1c2d3</code>`,
      'NDA &lt;2030&gt;, Annex',
      '250',
      '120',
      '<span class="hint">not sent</span>',
      '2',
      '—',
      '<span class="state state-running">running</span> <span class="state state-test" title="Test mode: nothing is sent">test</span>',
    ]);
    assert.deepEqual(done, [
      `<a href="/app/bulk-sends/${DONE_ID}" ><time datetime="2030-01-02T09:30:00.000Z">2030-01-02 09:30:00 UTC</time><span class="visually-hidden"> (bulk send ${DONE_ID})</span></a ><br /><code class="hint">c8b2d3e4</code>`,
      'Service agreement',
      '4',
      '3',
      '3',
      '1',
      '—',
      '<span class="state state-completed">completed</span>',
    ]);
  });

  it('shows a cancelled one (ADR 3450): the rows it left unmade, and cancelled by its state', async () => {
    const at = '2030-01-03T10:05:00.000Z';
    const stopping = bulkSendSummary(RUNNING_ID, {
      state: 'running',
      created: 40,
      sent: 40,
      failed: 0,
      cancelled: 0,
    });
    const text = await showPage(
      appWith(
        answers({
          [LIST]: page([
            { ...stopping, cancelled_at: at, completed_at: null },
            { ...DONE, rows_total: 200, created: 50, sent: 49, failed: 2, cancelled: 148, cancelled_at: at },
          ]),
        }),
      ),
      '/app/bulk-sends',
    );
    const [running, done] = rowsOf(text);
    assert.deepEqual(running?.slice(2), [
      '4',
      '40',
      '40',
      '0',
      '0',
      '<span class="state state-running">running</span> <span class="state state-cancelled">cancelled</span>',
    ]);
    assert.deepEqual(done?.slice(2), [
      '200',
      '50',
      '49',
      '2',
      '148',
      '<span class="state state-completed">completed</span> <span class="state state-cancelled">cancelled</span>',
    ]);
  });

  it('pages by ?page=, 50 at a time, and takes a bad page for the first', async () => {
    const second = 'GET /v1.1/sites/3/bulk_sends?page=2&per_page=50';
    const app = appWith(
      answers({
        [LIST]: { ...page([DONE]), per_page: 50, total_count: 120, has_more: true },
        [second]: { ...page([DONE]), page: 2, per_page: 50, total_count: 120, has_more: true },
      }),
    );
    const middle = await showPage(app, '/app/bulk-sends?page=2');
    assert.match(middle, /<a href="\/app\/bulk-sends\?page=1" rel="prev">Previous page<\/a>/);
    assert.match(middle, /<span>Page 2 of 3<\/span>/);
    assert.match(middle, /<a href="\/app\/bulk-sends\?page=3" rel="next">Next page<\/a>/);
    for (const bad of ['0', '-1', 'two', '1e3', '1234567']) {
      const first = await showPage(app, `/app/bulk-sends?page=${bad}`);
      assert.match(first, /<span>Page 1 of 3<\/span>/, bad);
      assert.doesNotMatch(first, /rel="prev"/, bad);
    }
    assert.deepEqual(
      callsOf(app, 'GET')
        .map(([path]) => path)
        .filter((path) => path !== '/v1.1/sessions/current'),
      [second.slice(4), ...Array<string>(5).fill(LIST.slice(4))],
    );
  });

  it('says when the Site has none yet, with the way to start one', async () => {
    const text = await showPage(appWith(answers({ [LIST]: page([]) })), '/app/bulk-sends');
    assert.match(
      text.replace(/\s+/g, ' '),
      /<p class="notice"> No bulk sends on this Site yet\. Start one with <a href="\/app\/bulk-sends\/new">Bulk send from a CSV file<\/a>\. <\/p>/,
    );
    assert.doesNotMatch(text, /<table>|class="pager"/);
  });

  it('says a page past the end is empty, with the way back to the first', async () => {
    const past = 'GET /v1.1/sites/3/bulk_sends?page=9&per_page=50';
    const text = await showPage(
      appWith(answers({ [past]: { ...page([]), page: 9, per_page: 50, total_count: 3 } })),
      '/app/bulk-sends?page=9',
    );
    assert.match(text, /No bulk sends on page 9\. <a href="\/app\/bulk-sends">Back to the first page<\/a>/);
    assert.doesNotMatch(text, /on this Site yet/);
  });

  it('shows the API’s refusal as a problem page with its status', async () => {
    const refused = apiProblem(403, 'forbidden', 'You are not a member of this Site.');
    const text = await showPage(appWith(answers({ [LIST]: refused })), '/app/bulk-sends', 403);
    assert.match(text, /<h1>This cannot be done<\/h1>/);
    assert.match(text, /<div class="errors" role="alert"><p>You are not a member of this Site\.<\/p><\/div>/);
    assert.doesNotMatch(text, /<table>/);
  });

  it('is linked from the Requests page and from a bulk send’s progress page', async () => {
    const requests = await showPage(
      appWith(answers({ 'GET /v1.1/sites/3/requests?page=1&per_page=20': page([]) })),
      '/app/requests',
    );
    assert.match(
      requests,
      /href="\/app\/bulk-sends\/new">Bulk send from a CSV file<\/a>\s*<a class="button secondary" href="\/app\/bulk-sends">Bulk sends<\/a>/,
    );
    const bulk = {
      ...DONE,
      contracts: undefined,
      failures: [],
      requests: [{ row: 0, request_id: 'r0000000-0000-4000-8000-000000000000' }],
    };
    const progress = await showPage(
      appWith(answers({ [`GET /v1.1/bulk_sends/${DONE_ID}`]: bulk })),
      `/app/bulk-sends/${DONE_ID}`,
    );
    assert.match(progress, /<a href="\/app\/bulk-sends">All bulk sends<\/a>/);
  });
});
