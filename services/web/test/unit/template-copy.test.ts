import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, contract, COOKIE, CSRF, CURRENT, ORIGIN } from '../support/fake-api.js';
import { flat, showPage } from '../support/page-text.js';

const AT = '2030-02-01T09:30:00.000Z';
const HTML = '<p>Between {{client_name}} and us.</p>';
const published = { ...contract(12, 'NDA', 'published', ['client_name']), html: HTML };
const draft = { ...contract(12, 'NDA', 'draft', ['client_name']), html: HTML };
const archived = { ...published, archived_at: AT };
const copy = { ...contract(31, 'NDA (copy)', 'draft', ['client_name']), html: HTML };
const COPIED = 'A draft copy was made. Edit it, then publish it to use it in Requests.';
const HINT =
  'A published template never changes. To change it, duplicate it, edit the draft copy and publish that; then archive this one.';

const answers = (more: Record<string, unknown> = {}) => ({
  'GET /v1.1/sessions/current': CURRENT,
  'GET /v1.1/contracts/12': published,
  'GET /v1.1/contracts/31': copy,
  'POST /v1.1/contracts/12/copy': copy,
  ...more,
});
const post = (app: ReturnType<typeof appWith>, fields: Record<string, string>) =>
  request(app.callback)
    .post('/app/templates/12/copy')
    .set('Cookie', COOKIE)
    .set('Origin', ORIGIN)
    .type('form')
    .send(fields);
/** The calls the app made other than reading, as [method, path, body, Idempotency-Key]. */
const changes = (app: ReturnType<typeof appWith>) =>
  app.calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.path, c.body, c.idempotencyKey]);
const formOf = (text: string, action: string): string => {
  const start = text.indexOf(`action="${action}"`);
  assert.ok(start >= 0, `a form posting to ${action}`);
  return text.slice(start, text.indexOf('</form>', start));
};
const count = (text: string, part: string): number => text.split(part).length - 1;

/** Duplicating a contract template (ADR 3260), over the fake API. */
describe('web: a contract template duplicated', () => {
  for (const [kind, view] of [
    ['a draft', draft],
    ['a published', published],
    ['an archived', archived],
  ] as const)
    it(`offers Duplicate on ${kind} template, with CSRF and its own Idempotency-Key`, async () => {
      const text = await showPage(appWith(answers({ 'GET /v1.1/contracts/12': view })), '/app/templates/12');
      const form = formOf(text, '/app/templates/12/copy');
      assert.match(text, /<form method="post" action="\/app\/templates\/12\/copy" class="inline">/);
      assert.match(form, new RegExp(`name="_csrf" value="${CSRF}"`));
      assert.match(form, /<input type="hidden" name="idempotency_key" value="[0-9a-f-]{36}" \/>/);
      assert.match(form, /<button type="submit" class="secondary"[^>]*>\s*Duplicate\s*<\/button>/);
      assert.doesNotMatch(form, /name="name"/, 'the API names the copy');
      // How a published template is corrected is said where it can be: not on a draft or an archived one.
      assert.equal(flat(text).includes(HINT), kind === 'a published', HINT);
      assert.equal(/aria-describedby="copy-hint"/.test(form), kind === 'a published');
    });

  it('gives each showing of the form a new key', async () => {
    const app = appWith(answers());
    const keyOf = (text: string) => /name="idempotency_key" value="([^"]*)"/.exec(text)?.[1];
    const first = keyOf(await showPage(app, '/app/templates/12'));
    const second = keyOf(await showPage(app, '/app/templates/12'));
    assert.ok(first && second);
    assert.notEqual(first, second);
  });

  it('copies with POST /v1.1/contracts/12/copy, no body and the form’s key, and lands on the copy saying so once', async () => {
    const app = appWith(answers());
    const done = await post(app, { _csrf: CSRF, idempotency_key: 'copy-key-1' }).expect(303);
    assert.equal(done.headers.location, '/app/templates/31?done=copied');
    assert.deepEqual(changes(app), [['POST', '/v1.1/contracts/12/copy', undefined, 'copy-key-1']]);

    const text = await showPage(app, '/app/templates/31?done=copied');
    assert.match(text, /<h1>NDA \(copy\) <span class="state state-draft">draft<\/span><\/h1>/);
    assert.equal(count(text, COPIED), 1, 'said once');
    assert.ok(text.includes(`<p class="success" role="status">${COPIED}</p>`));
    assert.match(text, /<a class="button secondary" href="\/app\/templates\/31\/edit">Edit<\/a>/);
    assert.match(text, /action="\/app\/templates\/31\/publish"/);
    assert.doesNotMatch(await showPage(app, '/app/templates/31'), /A draft copy was made/, 'only just made');
  });

  it('sends no key when the form has none, and says a copy it cannot edit here is to be published', async () => {
    const pdf = { ...copy, type: 'pdf', html: null };
    const app = appWith(answers({ 'POST /v1.1/contracts/12/copy': pdf, 'GET /v1.1/contracts/31': pdf }));
    await post(app, { _csrf: CSRF }).expect(303);
    assert.deepEqual(changes(app), [['POST', '/v1.1/contracts/12/copy', undefined, undefined]]);
    const text = await showPage(app, '/app/templates/31?done=copied');
    assert.ok(
      text.includes(
        '<p class="success" role="status">A draft copy was made. Publish it to use it in Requests.</p>',
      ),
    );
    assert.doesNotMatch(text, /Edit it/);
  });

  it('shows a refusal on the source template’s page, keeping the form’s key', async () => {
    const refusal = apiProblem(404, 'not_found', 'No such contract template.');
    const app = appWith(answers({ 'POST /v1.1/contracts/12/copy': refusal }));
    const res = await post(app, { _csrf: CSRF, idempotency_key: 'copy-key-2' }).expect(404);
    assert.match(res.text, /<h1>NDA <span class="state state-published">published<\/span><\/h1>/);
    assert.match(res.text, /role="alert"[\s\S]*No such contract template\./);
    assert.doesNotMatch(res.text, /class="success"|A draft copy was made/);
    assert.match(formOf(res.text, '/app/templates/12/copy'), /name="idempotency_key" value="copy-key-2"/);

    const reused = apiProblem(422, 'idempotency_key_reused', 'The key was used for another request.');
    const again = await post(appWith(answers({ 'POST /v1.1/contracts/12/copy': reused })), {
      _csrf: CSRF,
      idempotency_key: 'copy-key-2',
    }).expect(422);
    assert.match(again.text, /The key was used for another request\./);
    assert.match(
      formOf(again.text, '/app/templates/12/copy'),
      /name="idempotency_key" value="[0-9a-f-]{36}"/,
    );
  });

  it('refuses a Duplicate form without its anti-forgery token, asking the API nothing', async () => {
    const app = appWith(answers());
    await post(app, { idempotency_key: 'copy-key-3' }).expect(403);
    await post(app, { _csrf: 'forged', idempotency_key: 'copy-key-3' }).expect(403);
    await request(app.callback)
      .post('/app/templates/12/copy')
      .set('Cookie', COOKIE)
      .set('Origin', 'https://elsewhere.example')
      .type('form')
      .send({ _csrf: CSRF })
      .expect(403);
    assert.deepEqual(changes(app), []);
  });
});
