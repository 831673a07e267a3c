import assert from 'node:assert/strict';
import request from 'supertest';
import { apiProblem, appWith, contract, COOKIE, CSRF, CURRENT, ORIGIN, page } from '../support/fake-api.js';

const HTML = '<p>Between {{client_name}} and us.</p>';
const draft = (fields: Record<string, unknown>[] = [{ name: 'signature', type: 'signature' }]) => ({
  ...contract(12, 'NDA', 'draft', ['client_name'], []),
  fields,
  html: HTML,
});
const answers = (more: Record<string, unknown> = {}) => ({
  'GET /v1.1/sessions/current': CURRENT,
  'GET /v1.1/contracts/12': draft(),
  ...more,
});
const show = async (app: ReturnType<typeof appWith>, path: string, status = 200) =>
  (await request(app.callback).get(path).set('Cookie', COOKIE).expect(status)).text;
const post = (app: ReturnType<typeof appWith>, path: string, fields: Record<string, string>) =>
  request(app.callback)
    .post(path)
    .set('Cookie', COOKIE)
    .set('Origin', ORIGIN)
    .type('form')
    .send({ _csrf: CSRF, ...fields });

/** A draft template edited in the editor and deleted (ADR 3240), over the fake API. */
describe('web: a draft template edited or deleted', () => {
  it('offers Publish, Edit and Delete on a draft; a published template its own Delete only (ADR 3430)', async () => {
    const text = await show(appWith(answers()), '/app/templates/12');
    assert.match(text, /action="\/app\/templates\/12\/publish"/);
    assert.match(text, /<a class="button secondary" href="\/app\/templates\/12\/edit">Edit<\/a>/);
    assert.match(text, /<summary>Delete this draft…<\/summary>[\s\S]*?action="\/app\/templates\/12\/delete"/);
    const published = await show(
      appWith(
        answers({
          'GET /v1.1/contracts/12': { ...draft(), ...contract(12, 'NDA', 'published', []), html: HTML },
        }),
      ),
      '/app/templates/12',
    );
    assert.doesNotMatch(published, /\/edit"|\/publish"|Delete this draft/);
    // Deleted behind a disclosure that says what it does, archived or not.
    for (const archived_at of [null, '2030-02-01T09:30:00.000Z']) {
      const shown = await show(
        appWith(
          answers({
            'GET /v1.1/contracts/12': {
              ...draft(),
              ...contract(12, 'NDA', 'published', []),
              html: HTML,
              archived_at,
            },
          }),
        ),
        '/app/templates/12',
      );
      assert.match(
        shown,
        /<summary>Delete this template…<\/summary>[\s\S]*?id="delete-hint">[\s\S]*?Requests already made\s+with it are unaffected[\s\S]*?action="\/app\/templates\/12\/delete"[\s\S]*?aria-describedby="delete-hint">Delete template</,
      );
    }
  });

  it('leaves a draft whose fields the editor cannot show whole to the API, saying so', async () => {
    const choice = answers({
      'GET /v1.1/contracts/12': draft([{ name: 'plan', type: 'choice', options: ['a | b', 'c'] }]),
    });
    const text = await show(appWith(choice), '/app/templates/12');
    assert.doesNotMatch(text, />Edit</);
    assert.match(text, /"\|" or a bracket in an option/);
    assert.match(text, /replace\s+it\s+with\s+<code>PUT \/v1\.1\/contracts\/12<\/code>/);
    const edit = await request(appWith(choice).callback)
      .get('/app/templates/12/edit')
      .set('Cookie', COOKIE)
      .expect(303);
    assert.equal(edit.headers.location, '/app/templates/12');
  });

  it('opens the draft in the editor and saves it whole with PUT', async () => {
    const text = await show(appWith(answers()), '/app/templates/12/edit');
    assert.match(text, /<h1>Edit draft template<\/h1>/);
    assert.match(text, /action="\/app\/templates\/12\/edit"/);
    assert.match(text, /id="name"\s+name="name"\s+type="text"\s+value="NDA"/);
    assert.match(text, />\nsignature: signature<\/textarea>/);
    assert.match(text, />\s*Save draft\s*<\/button>/);

    const app = appWith(answers({ 'PUT /v1.1/contracts/12': { ...draft(), name: 'NDA v2' } }));
    const saved = await post(app, '/app/templates/12/edit', {
      action: 'create',
      name: 'NDA v2',
      html: HTML,
      fields: 'signature: signature\nfull_name: text',
      sample: '{}',
    }).expect(303);
    assert.equal(saved.headers.location, '/app/templates/12?done=saved');
    assert.deepEqual(
      app.calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body]),
      [
        [
          '/v1.1/contracts/12',
          {
            type: 'html',
            name: 'NDA v2',
            html: HTML,
            fields: [
              { name: 'signature', type: 'signature' },
              { name: 'full_name', type: 'text' },
            ],
          },
        ],
      ],
    );
  });

  it('shows a refusal in the editor as typed; a published template’s refusal says why', async () => {
    const refused = appWith(
      answers({
        'PUT /v1.1/contracts/12': apiProblem(422, 'invalid_template', 'Invalid template', {
          html: 'has an <img>',
        }),
      }),
    );
    const res = await post(refused, '/app/templates/12/edit', {
      name: 'NDA',
      html: '<img src=x>',
      fields: '',
      sample: '{}',
    }).expect(422);
    assert.match(res.text, /id="html-error">has an &lt;img&gt;</);
    assert.match(res.text, />\n&lt;img src=x&gt;<\/textarea>/);
    // A field's refusal names the line that wrote it (ADR 3670's fieldsProblem).
    const field = appWith(
      answers({
        'PUT /v1.1/contracts/12': apiProblem(422, 'invalid_template', 'Invalid template', {
          'fields[1].name': 'duplicates fields[0].name "a"',
        }),
      }),
    );
    const twice = await post(field, '/app/templates/12/edit', {
      name: 'NDA',
      html: '<p>x</p>',
      fields: 'a: text\n\na: checkbox',
      sample: '{}',
    }).expect(422);
    assert.match(twice.text, /id="fields-error">line 3: duplicates fields\[0\]\.name &quot;a&quot;</);
  });

  it('deletes the template and says so on the list; a refusal shows on the template’s page', async () => {
    const app = appWith(
      answers({
        'DELETE /v1.1/contracts/12': '',
        'GET /v1.1/sites/3/contracts?page=1&per_page=50&archived=false': page([]),
      }),
    );
    const deleted = await post(app, '/app/templates/12/delete', {}).expect(303);
    assert.equal(deleted.headers.location, '/app/templates?done=deleted');
    assert.match(await show(app, '/app/templates?done=deleted'), /role="status">The template was deleted\./);

    const kept = appWith(
      answers({
        'DELETE /v1.1/contracts/12': apiProblem(429, 'rate_limited', 'Too many calls: try again in 5 s.'),
      }),
    );
    const res = await post(kept, '/app/templates/12/delete', {}).expect(429);
    assert.match(res.text, /Too many calls: try again in 5 s\./);
  });
});
