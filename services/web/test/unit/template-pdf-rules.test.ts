import assert from 'node:assert/strict';
import request from 'supertest';
import { fieldsProblem, parseFields } from '../../src/template-text.js';
import { appWith, callsOf, contract, COOKIE, CSRF, CURRENT, ORIGIN } from '../support/fake-api.js';

const PDF = Buffer.from('%PDF-1.7 lease');
const lease = { ...contract(12, 'Lease', 'draft', []), type: 'pdf', html: null };

/** The upload form posted as a browser does: multipart, with the file and `fields`. */
const upload = (app: ReturnType<typeof appWith>, fields: Record<string, string>) => {
  let call = request(app.callback).post('/app/templates/pdf').set('Cookie', COOKIE).set('Origin', ORIGIN);
  for (const [name, value] of Object.entries({ _csrf: CSRF, name: 'Lease', ...fields }))
    call = call.field(name, value);
  return call.attach('pdf', PDF, { filename: 'lease.pdf', contentType: 'application/pdf' });
};

/** ADR 3670 in the web application: a PDF's upload gives rules to the PDF's own fields. */
describe('web: rules for a PDF template’s own fields, given at its upload', () => {
  it('names the line of the field an API refusal is at', () => {
    const rules = 'a: text\n\n b: text \nc: checkbox';
    const problem = (path: string) => fieldsProblem(rules, new Map([[path, 'is wrong']]));
    assert.equal(problem('fields[0].name'), 'line 1: is wrong');
    assert.equal(problem('fields[1].type'), 'line 3: is wrong');
    assert.equal(problem('fields[2]'), 'line 4: is wrong');
    assert.equal(problem('fields[3].name'), 'is wrong', 'no such line');
    assert.equal(problem('fields'), 'is wrong');
    assert.equal(fieldsProblem(rules, new Map([['name', 'is wrong']])), undefined);
  });

  it('reads a choice without options, and refuses one with them, naming the line', () => {
    assert.deepEqual(parseFields('plan: choice optional\n\nsigned_on: date_signed', 'pdf'), {
      fields: [
        { name: 'plan', type: 'choice', required: false },
        { name: 'signed_on', type: 'date_signed' },
      ],
    });
    assert.deepEqual(parseFields('plan: choice [A | B]', 'pdf'), {
      error: 'line 1: a PDF\'s choice keeps its own options: write "plan: choice optional"',
    });
    // An HTML template's choice still lists its options.
    assert.deepEqual(parseFields('plan: choice optional'), {
      error: 'line 1: a choice lists its options in brackets, as in "plan: choice [Basic | Pro]"',
    });
  });

  it('offers the rules beside the file, and sends the lines as the create’s fields', async () => {
    const app = appWith({ 'GET /v1.1/sessions/current': CURRENT, 'POST /v1.1/sites/3/contracts': lease });
    const form = await request(app.callback).get('/app/templates/new-pdf').set('Cookie', COOKIE).expect(200);
    assert.match(form.text, /<label for="fields">Field rules \(optional\)<\/label>/);
    assert.match(form.text, /aria-describedby="fields-hint fields-error"/);
    const answer = await upload(app, { fields: 'start: date from today\r\npets: checkbox required' }).expect(
      303,
    );
    assert.equal(answer.headers.location, '/app/templates/12?done=created');
    assert.deepEqual(callsOf(app, 'POST'), [
      [
        '/v1.1/sites/3/contracts',
        {
          type: 'pdf',
          name: 'Lease',
          pdf: PDF.toString('base64'),
          fields: [
            { name: 'start', type: 'date', earliest: 'today' },
            { name: 'pets', type: 'checkbox', required: true },
          ],
        },
      ],
    ]);
  });

  it('sends no fields when there are no rules', async () => {
    const app = appWith({ 'GET /v1.1/sessions/current': CURRENT, 'POST /v1.1/sites/3/contracts': lease });
    await upload(app, { fields: '\n' }).expect(303);
    assert.deepEqual(callsOf(app, 'POST'), [
      ['/v1.1/sites/3/contracts', { type: 'pdf', name: 'Lease', pdf: PDF.toString('base64') }],
    ]);
  });

  it('refuses a line it cannot read before calling the API, keeping what was typed', async () => {
    const app = appWith({ 'GET /v1.1/sessions/current': CURRENT });
    const page = await upload(app, { fields: 'pets: checkbox\nzip: text max' }).expect(422);
    assert.match(
      page.text,
      /<p class="error" id="fields-error">line 2: &quot;max&quot; is followed by the most characters it takes/,
    );
    assert.match(page.text, /aria-invalid="true"\s*>\npets: checkbox\nzip: text max<\/textarea/);
    assert.deepEqual(callsOf(app, 'POST'), []);
  });

  it('shows the API’s refusal of a rule beside the rules', async () => {
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      'POST /v1.1/sites/3/contracts': {
        type: 'x',
        title: 'Invalid template',
        status: 422,
        code: 'invalid_template',
        errors: [{ path: 'fields[0].name', message: 'names no form field of the PDF: "landlord"' }],
      },
    });
    // The refusal of fields[0] names the line that wrote it: blank lines are not fields.
    const page = await upload(app, { fields: '\n  \nlandlord: text' }).expect(422);
    assert.match(
      page.text,
      /<p class="error" id="fields-error">line 3: names no form field of the PDF: &quot;landlord&quot;<\/p>/,
    );
    assert.match(page.text, /<li>fields\[0\]\.name: names no form field of the PDF/);
  });

  describe('a draft’s Edit field rules', () => {
    const draft = {
      ...lease,
      fields: [
        { name: 'tenant', type: 'text', max_length: 40 },
        { name: 'term', type: 'choice', options: ['12 months', '24 months'], required: false },
        { name: 'pets', type: 'checkbox' },
      ],
    };
    const app = (template: unknown = draft, answer: unknown = draft) =>
      appWith({
        'GET /v1.1/sessions/current': CURRENT,
        'GET /v1.1/contracts/12': template,
        'PATCH /v1.1/contracts/12': answer,
      });
    const save = (on: ReturnType<typeof appWith>, rules: string) =>
      request(on.callback)
        .post('/app/templates/12/rules')
        .set('Cookie', COOKIE)
        .set('Origin', ORIGIN)
        .type('form')
        .send({ _csrf: CSRF, fields: rules });

    it('is linked from a draft PDF template’s page only', async () => {
      const page = async (template: unknown) =>
        (await request(app(template).callback).get('/app/templates/12').set('Cookie', COOKIE).expect(200))
          .text;
      const link = /<a class="button secondary" href="\/app\/templates\/12\/rules">Edit field rules<\/a>/;
      assert.match(await page(draft), link);
      assert.doesNotMatch(await page({ ...draft, state: 'published', published_at: draft.created_at }), link);
      assert.doesNotMatch(await page({ ...draft, type: 'html', html: '<p>x</p>' }), link);
      const refused = await request(app({ ...draft, state: 'published' }).callback)
        .get('/app/templates/12/rules')
        .set('Cookie', COOKIE)
        .expect(409);
      assert.match(refused.text, /Only a draft PDF template&#39;s field rules are edited here/);
    });

    it('shows a line for each of the PDF’s fields, a choice without its options', async () => {
      const page = await request(app().callback)
        .get('/app/templates/12/rules')
        .set('Cookie', COOKIE)
        .expect(200);
      assert.match(page.text, />\ntenant: text max 40\nterm: choice optional\npets: checkbox<\/textarea/);
    });

    it('saves the rules alone with PATCH: the file is neither read back nor sent (ADR 3890)', async () => {
      const on = app();
      const answer = await save(on, 'tenant: text min 2 max 40\npets: checkbox required').expect(303);
      assert.equal(answer.headers.location, '/app/templates/12?done=saved');
      assert.deepEqual(callsOf(on, 'STREAM'), []);
      assert.deepEqual(callsOf(on, 'PATCH'), [
        [
          '/v1.1/contracts/12',
          {
            fields: [
              { name: 'tenant', type: 'text', min_length: 2, max_length: 40 },
              { name: 'pets', type: 'checkbox', required: true },
            ],
          },
        ],
      ]);
    });

    it('refuses a line it cannot read without saving, and shows the API’s refusal beside the rules', async () => {
      const on = app();
      const page = await save(on, 'term: choice [A | B]').expect(422);
      assert.match(
        page.text,
        /<p class="error" id="fields-error">line 1: a PDF&#39;s choice keeps its own options/,
      );
      assert.deepEqual(callsOf(on, 'PATCH'), []);
      const refused = app(draft, {
        type: 'x',
        title: 'Invalid template',
        status: 422,
        code: 'invalid_template',
        errors: [
          { path: 'fields[0].max_length', message: "must not be more than the PDF field's own limit (40)" },
        ],
      });
      const shown = await save(refused, 'tenant: text max 50').expect(422);
      assert.match(
        shown.text,
        /id="fields-error">line 1: must not be more than the PDF field&#39;s own limit \(40\)</,
      );
      assert.match(shown.text, />\ntenant: text max 50<\/textarea/);
    });
  });
});
