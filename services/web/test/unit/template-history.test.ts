import assert from 'node:assert/strict';
import { appWith, contract, CURRENT, page } from '../support/fake-api.js';
import { flat, showPage } from '../support/page-text.js';

const published = { ...contract(12, 'NDA', 'published', []), html: '<p>NDA</p>' };
const HISTORY = 'GET /v1.1/contracts/12/events?order=desc&per_page=20';
const entry = (type: string, at: string) => ({
  id: `evt-${type}`,
  type,
  created_at: at,
  site_id: 3,
  data: { contract_id: 12, name: 'NDA', type: 'html', state: 'published', archived_at: null },
});

/** A template's History on its page (ADR 3720), over the fake API. */
describe('web: a template’s History (ADR 3720)', () => {
  it('lists the template’s events oldest first, read newest first from the API', async () => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      'GET /v1.1/contracts/12': published,
      [HISTORY]: page([
        entry('contract.published', '2030-01-02T10:00:00.000Z'),
        entry('contract.created', '2030-01-01T09:00:00.000Z'),
      ]),
    });
    const text = flat(await showPage(app, '/app/templates/12'));
    assert.match(
      text,
      /<section aria-labelledby="history-title"> <h2 id="history-title">History<\/h2> <div class="table-wrap"><table> <caption>What happened to this template, oldest first<\/caption>/,
    );
    const rows = [...text.matchAll(/<tr> <td><time[^>]*>([^<]+)<\/time><\/td><td>(\w+)<\/td>/g)].map((m) => [
      m[1],
      m[2],
    ]);
    assert.deepEqual(rows, [
      ['2030-01-01 09:00:00 UTC', 'Created'],
      ['2030-01-02 10:00:00 UTC', 'Published'],
    ]);
  });

  it('says how many it leaves out, and that an old template has none', async () => {
    const more = { ...page([entry('contract.archived', '2030-01-03T10:00:00.000Z')]), total_count: 25 };
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      'GET /v1.1/contracts/12': published,
      [HISTORY]: more,
    });
    assert.match(
      flat(await showPage(app, '/app/templates/12')),
      /<caption>The latest 1 of 25 events, oldest first<\/caption>/,
    );
    const none = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      'GET /v1.1/contracts/12': published,
      [HISTORY]: page([]),
    });
    assert.match(
      flat(await showPage(none, '/app/templates/12')),
      /<h2 id="history-title">History<\/h2> <p>No events recorded: a template made before its history was kept has none\.<\/p>/,
    );
  });

  it('shows the rest of the page when the history cannot be read', async () => {
    const app = appWith({ 'GET /v1.1/sessions/current': CURRENT, 'GET /v1.1/contracts/12': published });
    const text = await showPage(app, '/app/templates/12');
    assert.match(text, /<h2>Signer fields<\/h2>/);
    assert.doesNotMatch(text, /history-title/);
  });
});
