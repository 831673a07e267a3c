import assert from 'node:assert/strict';
import request from 'supertest';
import {
  apiProblem,
  appWith,
  callsOf,
  contract,
  COOKIE,
  CSRF,
  CURRENT,
  ORIGIN,
  page,
} from '../support/fake-api.js';
import {
  answers as newRequestAnswers,
  CREATE,
  post as postNewRequest,
  TEMPLATES,
} from '../support/request-new.js';
import { flat, showPage } from '../support/page-text.js';

const AT = '2030-02-01T09:30:00.000Z';
const HTML = '<p>Between {{client_name}} and us.</p>';
const published = { ...contract(12, 'NDA', 'published', ['client_name']), html: HTML };
const archived = { ...published, archived_at: AT };
const LIST = 'GET /v1.1/sites/3/contracts?page=1&per_page=50&archived=false';
const ARCHIVED_LIST = 'GET /v1.1/sites/3/contracts?page=1&per_page=50&archived=true';

const answers = (more: Record<string, unknown> = {}) => ({
  'GET /v1.1/sessions/current': CURRENT,
  'GET /v1.1/contracts/12': published,
  ...more,
});
const post = (
  app: ReturnType<typeof appWith>,
  path: string,
  fields: Record<string, string> = { _csrf: CSRF },
) => request(app.callback).post(path).set('Cookie', COOKIE).set('Origin', ORIGIN).type('form').send(fields);
const formOf = (text: string, action: string): string => {
  const start = text.indexOf(`action="${action}"`);
  assert.ok(start >= 0, `a form posting to ${action}`);
  return text.slice(start, text.indexOf('</form>', start));
};

/** Archiving a published contract template (ADR 3250), over the fake API. */
describe('web: archived contract templates', () => {
  it('lists the templates not archived, and links to the archived ones', async () => {
    const app = appWith(answers({ [LIST]: page([contract(11, 'Services', 'published', [])]) }));
    const text = await showPage(app, '/app/templates');
    assert.deepEqual(
      callsOf(app, 'GET').map(([path]) => path),
      ['/v1.1/sessions/current', '/v1.1/sites/3/contracts?page=1&per_page=50&archived=false'],
    );
    assert.match(text, /<h1>Contract templates <span class="hint">on Production<\/span><\/h1>/);
    assert.match(text, /<a href="\/app\/templates\?archived=true">Archived templates<\/a>/);
    assert.match(text, /<a href="\/app\/templates\/11">Services<\/a>/);
    assert.match(text, /New HTML template/);
  });

  it('lists the archived ones on their own, saying so, with a way back, and keeps the filter on every page', async () => {
    const second = 'GET /v1.1/sites/3/contracts?page=2&per_page=50&archived=true';
    const app = appWith(
      answers({ [second]: { ...page([archived]), page: 2, per_page: 50, total_count: 120, has_more: true } }),
    );
    const text = await showPage(app, '/app/templates?archived=true&page=2');
    assert.deepEqual(callsOf(app, 'GET').at(-1), [
      '/v1.1/sites/3/contracts?page=2&per_page=50&archived=true',
      undefined,
    ]);
    assert.match(text, /<title>Archived contract templates/);
    assert.match(text, /<h1>Archived contract templates <span class="hint">on Production<\/span><\/h1>/);
    assert.match(text, /left out of the templates list and New Request/);
    assert.match(text, /<a href="\/app\/templates">Back to the current templates<\/a>/);
    assert.doesNotMatch(text, /New HTML template|templates\?archived=true">Archived templates/);
    assert.match(text, /<th scope="col" class="wide">Archived<\/th>/);
    assert.match(text, /<time datetime="2030-02-01T09:30:00.000Z">/);
    assert.match(text, /href="\/app\/templates\?archived=true&amp;page=1" rel="prev"/);
    assert.match(text, /href="\/app\/templates\?archived=true&amp;page=3" rel="next"/);

    const empty = appWith(answers({ [ARCHIVED_LIST]: page([]) }));
    assert.match(
      await showPage(empty, '/app/templates?archived=true'),
      /<p class="notice">No archived templates\.<\/p>/,
    );
    const current = appWith(
      answers({
        'GET /v1.1/sites/3/contracts?page=2&per_page=50&archived=false': {
          ...page([published]),
          page: 2,
          has_more: true,
        },
      }),
    );
    const paged = await showPage(current, '/app/templates?page=2');
    assert.match(paged, /href="\/app\/templates\?page=1" rel="prev"/);
    assert.match(paged, /href="\/app\/templates\?page=3" rel="next"/);
  });

  it('says when a Site has no current templates because every one is archived, or none at all', async () => {
    const ONE_ARCHIVED = 'GET /v1.1/sites/3/contracts?page=1&per_page=1&archived=true';
    const allArchived = appWith(
      answers({ [LIST]: page([]), [ONE_ARCHIVED]: { ...page([archived]), per_page: 1, total_count: 3 } }),
    );
    assert.match(
      await showPage(allArchived, '/app/templates'),
      /<p class="notice">No current templates: all 3 templates are archived\.<\/p>/,
    );
    const none = appWith(answers({ [LIST]: page([]), [ONE_ARCHIVED]: page([]) }));
    assert.match(await showPage(none, '/app/templates'), /<p class="notice">No templates yet\.<\/p>/);
    assert.deepEqual(callsOf(none, 'GET').at(-1), [
      '/v1.1/sites/3/contracts?page=1&per_page=1&archived=true',
      undefined,
    ]);
  });

  it('offers Archive on a published template, with CSRF and a hint; a draft has no Archive', async () => {
    const text = await showPage(appWith(answers()), '/app/templates/12');
    const form = formOf(text, '/app/templates/12/archive');
    assert.match(form, new RegExp(`name="_csrf" value="${CSRF}"`));
    assert.match(
      form,
      /<button type="submit" class="secondary" aria-describedby="archive-hint">Archive<\/button>/,
    );
    assert.ok(
      flat(text).includes(
        'id="archive-hint"> Archiving leaves this template out of the templates list and New Request. Requests already made with it are unaffected. </p>',
      ),
    );
    assert.doesNotMatch(text, /\/unarchive"|state-archived|<dt>Archived<\/dt>/);

    const draft = { ...contract(12, 'NDA', 'draft', []), html: HTML };
    const drafted = await showPage(
      appWith(answers({ 'GET /v1.1/contracts/12': draft })),
      '/app/templates/12',
    );
    assert.doesNotMatch(drafted, /\/archive"|\/unarchive"/);
  });

  it('shows an archived template as archived, since when, that new Requests cannot use it, and Unarchive', async () => {
    const text = await showPage(
      appWith(answers({ 'GET /v1.1/contracts/12': archived })),
      '/app/templates/12',
    );
    assert.match(
      text,
      /<h1>NDA <span class="state state-published">published<\/span> <span class="state state-archived">archived<\/span><\/h1>/,
    );
    assert.match(text, /<dt>Archived<\/dt>\s*<dd><time datetime="2030-02-01T09:30:00.000Z">/);
    assert.match(text, /<p class="notice">\s*This template is archived: new Requests cannot use it\./);
    assert.match(text, /<a href="\/app\/templates\?archived=true">Archived<\/a>/);
    const form = formOf(text, '/app/templates/12/unarchive');
    assert.match(form, new RegExp(`name="_csrf" value="${CSRF}"`));
    assert.match(form, /<button type="submit">Unarchive<\/button>/);
    assert.doesNotMatch(text, /\/12\/archive"/);
  });

  for (const [action, view, said] of [
    [
      'archive',
      archived,
      'Archived: new Requests cannot use this template. Requests already made with it are unaffected.',
    ],
    ['unarchive', published, 'Unarchived: Requests can use this template again.'],
  ] as const)
    it(`${action}s with POST /v1.1/contracts/:id/${action} and lands on the template saying so`, async () => {
      const app = appWith(
        answers({ [`POST /v1.1/contracts/12/${action}`]: view, 'GET /v1.1/contracts/12': view }),
      );
      const done = await post(app, `/app/templates/12/${action}`).expect(303);
      assert.equal(done.headers.location, `/app/templates/12?done=${action}`);
      assert.deepEqual(callsOf(app, 'POST'), [[`/v1.1/contracts/12/${action}`, undefined]]);
      const text = await showPage(app, `/app/templates/12?done=${action}`);
      assert.ok(text.includes(`<p class="success" role="status">${said}</p>`), text);
      assert.doesNotMatch(text, /This template is archived/, 'said once');
    });

  it('shows a refusal on the template’s page (a draft is deleted, not archived)', async () => {
    const draft = { ...contract(12, 'NDA', 'draft', []), html: HTML };
    const refusal = apiProblem(409, 'template_draft', 'A draft template is deleted, not archived.');
    for (const action of ['archive', 'unarchive']) {
      const app = appWith(
        answers({ 'GET /v1.1/contracts/12': draft, [`POST /v1.1/contracts/12/${action}`]: refusal }),
      );
      const res = await post(app, `/app/templates/12/${action}`).expect(409);
      assert.match(res.text, /<h1>NDA <span class="state state-draft">draft<\/span><\/h1>/);
      assert.match(res.text, /role="alert"[\s\S]*A draft template is deleted, not archived\./);
      assert.doesNotMatch(res.text, /class="success"/);
    }
  });

  it('refuses an archive or unarchive form without its anti-forgery token, asking the API nothing', async () => {
    for (const action of ['archive', 'unarchive']) {
      const app = appWith(answers({ [`POST /v1.1/contracts/12/${action}`]: archived }));
      await post(app, `/app/templates/12/${action}`, {}).expect(403);
      await post(app, `/app/templates/12/${action}`, { _csrf: 'forged' }).expect(403);
      assert.deepEqual(callsOf(app, 'POST'), []);
    }
  });

  it('offers New Request only the published templates not archived, and shows the API’s refusal of an archived one', async () => {
    const app = appWith(
      newRequestAnswers({
        [TEMPLATES]: page([
          contract(11, 'Services', 'published', []),
          { ...contract(13, 'Old', 'published', []), archived_at: AT },
        ]),
      }),
    );
    const text = await showPage(app, '/app/requests/new');
    assert.ok(
      callsOf(app, 'GET').some(
        ([path]) => path === '/v1.1/sites/3/contracts?page=1&per_page=100&state=published&archived=false',
      ),
    );
    assert.match(text, /name="contract_11"/);
    assert.doesNotMatch(text, /name="contract_13"/, 'an archived one is left out, whatever the API answered');

    const message = 'contract template 11 is archived: unarchive it, or use another';
    const refused = appWith(
      newRequestAnswers({
        [CREATE]: apiProblem(422, 'invalid_request', 'Invalid request', 'contracts[0]', message),
      }),
    );
    const res = await postNewRequest(refused, { contract_11: 'on', signer_id_1: 'ann@example.com' }).expect(
      422,
    );
    assert.ok(res.text.includes(`id="contracts-error">${message}</p>`), 'beside the templates');
  });

  it('offers bulk send only the published templates not archived, and shows the API’s refusal of an archived one', async () => {
    const app = appWith(newRequestAnswers());
    const text = await showPage(app, '/app/bulk-sends/new');
    assert.deepEqual(callsOf(app, 'GET').at(-1), [
      '/v1.1/sites/3/contracts?page=1&per_page=100&state=published&archived=false',
      undefined,
    ]);
    assert.match(text, /name="contract_11"/);

    const message = 'contract template 11 is archived: unarchive it, or use another';
    const refused = appWith(
      newRequestAnswers({
        'POST /v1.1/sites/3/bulk_sends': apiProblem(
          422,
          'invalid_request',
          'Invalid request',
          'contracts[0]',
          message,
        ),
      }),
    );
    const res = await post(refused, '/app/bulk-sends', {
      _csrf: CSRF,
      idempotency_key: 'bulk-key-0001',
      contracts: '11',
      send: 'true',
      file_name: 'clients.csv',
      csv: 'signer_id\nc-1\n',
    }).expect(422);
    assert.ok(res.text.includes(`id="contracts-error">${message}</p>`), 'beside the templates');
    assert.ok(
      res.text.includes(`<a href="#contracts">Contracts[0] ${message}</a>`),
      'in the summary, linked',
    );
  });
});
