import assert from 'node:assert/strict';
import { appWith, callsOf, contract, CURRENT, page, requestView } from '../support/fake-api.js';
import { flat, showPage } from '../support/page-text.js';

const LIST = 'GET /v1.1/sites/3/requests?page=1&per_page=20';
const NDA = contract(12, 'NDA', 'published', []);
/** The first `<tag …>…</tag>` of `text` that starts with `start`, white space as single spaces. */
const partOf = (text: string, start: string, end: string): string => {
  const at = text.indexOf(start);
  assert.ok(at >= 0, `${start} in the page`);
  return flat(text.slice(at, text.indexOf(end, at) + end.length));
};
const listCalls = (app: ReturnType<typeof appWith>) =>
  callsOf(app, 'GET')
    .map(([path]) => String(path))
    .filter((path) => path.startsWith('/v1.1/sites/3/requests'));
const withAnswers = (answers: Record<string, unknown>) =>
  appWith({ 'GET /v1.1/sessions/current': CURRENT, ...answers });

/** `/app/requests?q=…`: the Requests whose title contains some text (ADR 3390). */
describe('web: the Requests list searched by title', () => {
  it('shows a Request’s title linking to it with its short id, and one without as its short id', async () => {
    const titled = { ...requestView('sent'), title: 'Lease <4> Quay' };
    const other = { ...requestView('sent'), state: 'draft', id: '11111111-2222-4333-8444-555555555555' };
    const text = await showPage(withAnswers({ [LIST]: page([titled, other]) }), '/app/requests');
    assert.ok(
      flat(text).includes(
        `<td><a href="/app/requests/${titled.id}" >Lease &lt;4&gt; Quay<span class="visually-hidden"> (Request ${titled.id})</span></a ><br /><code class="hint">${titled.id.slice(0, 8)}</code></td>`,
      ),
      flat(text),
    );
    assert.ok(
      flat(text).includes(
        `<td><a href="/app/requests/${other.id}" ><code>11111111</code><span class="visually-hidden"> (Request ${other.id})</span></a ></td>`,
      ),
    );
  });

  it('offers a labelled search box in the filter form, kept as asked', async () => {
    const app = withAnswers({ [`${LIST}&q=lease+%C2%AB4%C2%BB`]: page([requestView('sent')]) });
    const text = await showPage(app, '/app/requests?q=%20lease%20%C2%AB4%C2%BB%20');
    assert.deepEqual(listCalls(app), ['/v1.1/sites/3/requests?page=1&per_page=20&q=lease+%C2%AB4%C2%BB']);
    const form = partOf(text, 'aria-label="Filter Requests"', '</form>');
    assert.ok(form.includes('<label for="q">Search titles</label>'), form);
    assert.ok(
      form.includes(
        '<input id="q" name="q" type="search" maxlength="255" value="lease «4»" aria-describedby="q-hint" />',
      ),
      form,
    );
    assert.equal(
      partOf(text, '<p role="status">', '</p>'),
      '<p role="status"> 1 Request whose title contains “lease «4»”. <a href="/app/requests">Clear the search</a> </p>',
    );
  });

  it('sends no `q` for a blank search, and cuts one too long to 255 characters, saying so', async () => {
    const blank = withAnswers({ [LIST]: page([]) });
    const none = await showPage(blank, '/app/requests?q=%20%20');
    assert.deepEqual(listCalls(blank), ['/v1.1/sites/3/requests?page=1&per_page=20']);
    assert.doesNotMatch(partOf(none, '<p role="status">', '</p>'), /title|Clear the search/);
    const long = 'a'.repeat(300);
    const app = withAnswers({ [`${LIST}&q=${'a'.repeat(255)}`]: page([]) });
    const text = await showPage(app, `/app/requests?q=${long}`);
    assert.deepEqual(listCalls(app), [`/v1.1/sites/3/requests?page=1&per_page=20&q=${'a'.repeat(255)}`]);
    assert.match(text, /Your search was cut to its first 255 characters\./);
  });

  it('keeps the search in the page links and in the other filters’ links, and they in its clear link', async () => {
    const second =
      'GET /v1.1/sites/3/requests?page=2&per_page=20&state=sent&q=Lease&signer_id=ann&contract_id=12';
    const app = withAnswers({
      [second]: { ...page([requestView('sent')]), page: 2, per_page: 20, total_count: 60, has_more: true },
      'GET /v1.1/contracts/12': NDA,
    });
    const text = await showPage(app, '/app/requests?state=sent&q=Lease&signer_id=ann&contract_id=12&page=2');
    assert.equal(listCalls(app).length, 1);
    const kept = 'state=sent&amp;q=Lease&amp;signer_id=ann&amp;contract_id=12';
    assert.ok(text.includes(`href="/app/requests?${kept}&amp;page=1" rel="prev"`), 'the previous page');
    assert.ok(text.includes(`href="/app/requests?${kept}&amp;page=3" rel="next"`), 'the next page');
    const status = partOf(text, '<p role="status">', '</p>');
    assert.ok(status.includes('in state sent whose title contains “Lease” naming signer'), status);
    assert.ok(
      status.includes(
        '<a href="/app/requests?state=sent&amp;signer_id=ann&amp;contract_id=12">Clear the search</a>',
      ),
      status,
    );
    assert.ok(
      status.includes(
        '<a href="/app/requests?state=sent&amp;q=Lease&amp;contract_id=12">Show every signer’s</a>',
      ),
      status,
    );
    assert.ok(
      status.includes(
        '<a href="/app/requests?state=sent&amp;q=Lease&amp;signer_id=ann">Show every template’s</a>',
      ),
      status,
    );
  });

  it('says in one sentence what found nothing, the search with the other filters', async () => {
    const alone = await showPage(withAnswers({ [`${LIST}&q=lease`]: page([]) }), '/app/requests?q=lease');
    assert.equal(
      partOf(alone, '<p class="notice">', '</p>'),
      '<p class="notice"> No Requests whose title contains “lease”. <a href="/app/requests">Clear the filter</a> </p>',
    );
    const all = await showPage(
      withAnswers({
        [`${LIST}&state=sent&q=%3Cb%3E&signer_id=ann&contract_id=12&created_before=2026-12-01T00%3A00%3A00Z`]:
          page([]),
        'GET /v1.1/contracts/12': NDA,
      }),
      '/app/requests?state=sent&q=%3Cb%3E&signer_id=ann&contract_id=12&created_before=2026-12-01',
    );
    assert.equal(
      partOf(all, '<p class="notice">', '</p>'),
      '<p class="notice"> No sent Requests created before 1 Dec 2026 whose title contains “&lt;b&gt;” ' +
        'name signer “ann” and were made with template “NDA”. <a href="/app/requests">Clear the filters</a> </p>',
    );
  });
});
