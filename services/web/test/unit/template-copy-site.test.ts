import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, contract, COOKIE, CSRF, CURRENT, ORIGIN } from '../support/fake-api.js';
import { flat } from '../support/page-text.js';

const HTML = '<p>Between {{client_name}} and us.</p>';
const published = { ...contract(12, 'NDA', 'published', ['client_name']), html: HTML };
/** The copy, made in Site 5 under the source's name. */
const copy = { ...contract(31, 'NDA', 'draft', ['client_name']), html: HTML, site_id: 5 };
const SITES = [
  { id: 3, name: 'Production' },
  { id: 5, name: 'Development' },
  { id: 7, name: 'Staging' },
];
const ACTION = '/app/templates/12/copy-to-site';
const HINT =
  'A draft with this template’s content is made in the Site you choose, under the same name; publish it there to use it. How a template tried out in a test Site goes to the production one.';
const COPIED = 'A draft copy was made in Development. Edit it, then publish it to use it in Requests.';

const answers = (more: Record<string, unknown> = {}) => ({
  'GET /v1.1/sessions/current': { ...CURRENT, sites: SITES },
  'GET /v1.1/contracts/12': published,
  'GET /v1.1/contracts/31': copy,
  'POST /v1.1/contracts/12/copy': copy,
  ...more,
});
const show = async (app: ReturnType<typeof appWith>, path: string, cookie = COOKIE) =>
  (await request(app.callback).get(path).set('Cookie', cookie).expect(200)).text;
const post = (app: ReturnType<typeof appWith>, fields: Record<string, string>) =>
  request(app.callback).post(ACTION).set('Cookie', COOKIE).set('Origin', ORIGIN).type('form').send(fields);
/** The calls the app made other than reading, as [method, path, body, Idempotency-Key]. */
const changes = (app: ReturnType<typeof appWith>) =>
  app.calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.path, c.body, c.idempotencyKey]);
const formOf = (text: string, action: string): string => {
  const start = text.indexOf(`action="${action}"`);
  assert.ok(start >= 0, `a form posting to ${action}`);
  return text.slice(start, text.indexOf('</form>', start));
};
/** The options of the select `id`, as [value, text, selected]. */
const optionsOf = (text: string, id: string): [string, string, boolean][] => {
  const start = text.indexOf(`<select\n`, text.indexOf(`for="${id}"`));
  const select = text.slice(start, text.indexOf('</select>', start));
  assert.match(select, new RegExp(`id="${id}"`));
  return [...select.matchAll(/<option value="([^"]*)"\s*( selected)?\s*>\s*([^<]*?)\s*<\/option>/g)].map(
    (m) => [m[1]!, m[3]!, m[2] !== undefined],
  );
};
/** The Site the header's switch shows as current. */
const currentSite = (text: string) =>
  /<select id="site-switch"[\s\S]*?<option value="(\d+)"\s+selected>/.exec(text)?.[1];

/** Copying a contract template into another Site of the visitor's, over the fake API. */
describe('web: a contract template copied to another Site', () => {
  it('offers Copy to another Site with the visitor’s other Sites, a hint, CSRF and its own key', async () => {
    const text = await show(appWith(answers()), '/app/templates/12');
    const form = formOf(text, ACTION);
    assert.match(form, new RegExp(`name="_csrf" value="${CSRF}"`));
    assert.match(form, /<input type="hidden" name="idempotency_key" value="[0-9a-f-]{36}" \/>/);
    assert.match(form, /<label for="copy-site">Site to copy to<\/label>/);
    assert.ok(flat(form).includes(`<p class="hint" id="copy-site-hint"> ${HINT} </p>`), 'the hint');
    assert.match(form, /<select\s+id="copy-site"\s+name="site_id"\s+aria-describedby="copy-site-hint"\s*>/);
    assert.doesNotMatch(form, /aria-invalid|class="error"/);
    assert.deepEqual(optionsOf(text, 'copy-site'), [
      ['5', 'Development (5)', false],
      ['7', 'Staging (7)', false],
    ]);
    assert.match(form, /<button type="submit" class="secondary">Copy to Site<\/button>/);
    // Its own key, not the Duplicate form's.
    const keyOf = (f: string) => /name="idempotency_key" value="([^"]*)"/.exec(f)?.[1];
    assert.notEqual(keyOf(form), keyOf(formOf(text, '/app/templates/12/copy')));
  });

  it('leaves the template’s own Site out of the options, whichever Site that is', async () => {
    const text = await show(
      appWith(answers({ 'GET /v1.1/contracts/12': { ...published, site_id: 5 } })),
      '/app/templates/12',
    );
    assert.deepEqual(
      optionsOf(text, 'copy-site').map(([value]) => value),
      ['3', '7'],
    );
  });

  it('shows no such form to a visitor who reaches one Site only', async () => {
    const app = appWith(answers({ 'GET /v1.1/sessions/current': CURRENT }));
    const text = await show(app, '/app/templates/12');
    assert.ok(text.includes('action="/app/templates/12/copy"'), 'Duplicate stays');
    assert.doesNotMatch(text, /copy-to-site|Copy to another Site|Copy to Site/);
  });

  it('copies with { site_id } and the form’s key, makes that Site current and lands on the copy saying so', async () => {
    const app = appWith(answers());
    const done = await post(app, { _csrf: CSRF, idempotency_key: 'site-key-1', site_id: '5' }).expect(303);
    assert.equal(done.headers.location, '/app/templates/31?done=copied_to_site');
    assert.deepEqual(changes(app), [['POST', '/v1.1/contracts/12/copy', { site_id: 5 }, 'site-key-1']]);
    // The header's switch sets the same cookie.
    const set = ([] as string[]).concat(done.headers['set-cookie'] ?? []);
    const site = set.find((c) => c.startsWith('esign_site='));
    assert.ok(site?.startsWith('esign_site=5;'), set.join(' | '));
    const switched = await request(app.callback)
      .post('/app/sites/switch')
      .set('Cookie', COOKIE)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: CSRF, site_id: '5' })
      .expect(303);
    assert.deepEqual(
      ([] as string[])
        .concat(switched.headers['set-cookie'] ?? [])
        .filter((c) => c.startsWith('esign_site=')),
      [site],
    );

    const text = await show(app, '/app/templates/31?done=copied_to_site', `${COOKIE}; esign_site=5`);
    assert.equal(currentSite(text), '5', 'Development is the current Site');
    assert.ok(text.includes(`<p class="success" role="status">${COPIED}</p>`), COPIED);
    assert.equal(text.split('A draft copy was made').length - 1, 1, 'said once');
    assert.match(text, /<h1>NDA <span class="state state-draft">draft<\/span><\/h1>/);
    // On the copy's page, its own Site (5) is left out of the choice.
    assert.deepEqual(
      optionsOf(text, 'copy-site').map(([value]) => value),
      ['3', '7'],
    );
    assert.doesNotMatch(await show(app, '/app/templates/31'), /A draft copy was made/, 'only just made');
  });

  it('says a copy it cannot edit here is to be published, and sends no key when the form has none', async () => {
    const pdf = { ...copy, type: 'pdf', html: null };
    const app = appWith(answers({ 'POST /v1.1/contracts/12/copy': pdf, 'GET /v1.1/contracts/31': pdf }));
    await post(app, { _csrf: CSRF, site_id: '5' }).expect(303);
    assert.deepEqual(changes(app), [['POST', '/v1.1/contracts/12/copy', { site_id: 5 }, undefined]]);
    const text = await show(app, '/app/templates/31?done=copied_to_site');
    assert.ok(
      text.includes(
        '<p class="success" role="status">A draft copy was made in Development. Publish it to use it in Requests.</p>',
      ),
    );
  });

  it('shows a refusal at the select, the choice and the key kept, the Duplicate form with a new key', async () => {
    const refusal = apiProblem(
      422,
      'validation_failed',
      'The request body is invalid.',
      'site_id',
      'no site 7 that this credential reaches',
    );
    const app = appWith(answers({ 'POST /v1.1/contracts/12/copy': refusal }));
    const res = await post(app, { _csrf: CSRF, idempotency_key: 'site-key-2', site_id: '7' }).expect(422);
    assert.deepEqual(changes(app), [['POST', '/v1.1/contracts/12/copy', { site_id: 7 }, 'site-key-2']]);
    assert.match(res.text, /<h1>NDA <span class="state state-published">published<\/span><\/h1>/);
    assert.match(
      res.text,
      /role="alert"[\s\S]*<a href="#copy-site">Site to copy to no site 7 that this credential reaches<\/a>/,
    );
    const form = formOf(res.text, ACTION);
    assert.match(form, /<p class="error" id="copy-site-error">no site 7 that this credential reaches<\/p>/);
    assert.match(
      form,
      /<select\s+id="copy-site"\s+name="site_id"\s+aria-describedby="copy-site-hint copy-site-error"\s+aria-invalid="true"\s*>/,
    );
    assert.deepEqual(optionsOf(res.text, 'copy-site'), [
      ['5', 'Development (5)', false],
      ['7', 'Staging (7)', true],
    ]);
    assert.match(form, /name="idempotency_key" value="site-key-2"/);
    const duplicate = formOf(res.text, '/app/templates/12/copy');
    assert.match(duplicate, /name="idempotency_key" value="[0-9a-f-]{36}"/);
    assert.doesNotMatch(res.text, /class="success"|A draft copy was made/);
    assert.doesNotMatch(([] as string[]).concat(res.headers['set-cookie'] ?? []).join(), /esign_site=/);
  });

  it('a Duplicate refused leaves the Copy to Site form unmarked, with a new key', async () => {
    const refusal = apiProblem(404, 'not_found', 'No such contract template.');
    const app = appWith(answers({ 'POST /v1.1/contracts/12/copy': refusal }));
    const res = await request(app.callback)
      .post('/app/templates/12/copy')
      .set('Cookie', COOKIE)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: CSRF, idempotency_key: 'dup-key' })
      .expect(404);
    const form = formOf(res.text, ACTION);
    assert.doesNotMatch(form, /aria-invalid|dup-key/);
    assert.match(form, /name="idempotency_key" value="[0-9a-f-]{36}"/);
    assert.match(formOf(res.text, '/app/templates/12/copy'), /value="dup-key"/);
  });

  it('refuses a Copy to Site form without its anti-forgery token, asking the API nothing', async () => {
    const app = appWith(answers());
    await post(app, { site_id: '5' }).expect(403);
    await post(app, { _csrf: 'forged', site_id: '5' }).expect(403);
    assert.deepEqual(changes(app), []);
  });
});
