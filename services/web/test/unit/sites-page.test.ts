import assert from 'node:assert/strict';
import request from 'supertest';
import { csrfTokenOf } from '../../src/cookies.js';
import { ACCOUNT_VIEW, apiProblem, appWith, CURRENT, SESSION } from '../support/fake-api.js';

const AT = '2030-01-01T00:00:00.000Z';
const COOKIE = `esign_session=${SESSION}`;
const site = (id: number, name: string) => ({
  id,
  name,
  created_at: AT,
  default_locale: null,
  members: [{ user_id: 'u1', email: 'owner@acme.test', added_at: AT }],
});
const ACCOUNT = {
  'GET /v1.1/sessions/current': CURRENT,
  'GET /v1.1/account': ACCOUNT_VIEW,
  'GET /v1.1/account/sites?per_page=100': {
    page: 1,
    per_page: 100,
    count: 1,
    total_count: 1,
    has_more: false,
    data: [site(3, 'Production')],
  },
};
const post = (app: ReturnType<typeof appWith>, fields: Record<string, string>) =>
  request(app.callback)
    .post('/app/sites/new')
    .set('Cookie', COOKIE)
    .type('form')
    .send({ _csrf: csrfTokenOf(SESSION), ...fields });

describe('web: account admins create Sites (ADR 3050)', () => {
  it('shows the New Site form to an admin only', async () => {
    const admin = await request(appWith(ACCOUNT).callback)
      .get('/app/sites')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(admin.text, /<h3 id="new-site">New Site<\/h3>/);
    assert.match(admin.text, /action="\/app\/sites\/new"/);
    assert.match(admin.text, /<label for="new-site-name">Name of the new Site<\/label>/);
    const member = appWith({
      ...ACCOUNT,
      'GET /v1.1/sessions/current': { ...CURRENT, account_admin: false },
    });
    const page = await request(member.callback).get('/app/sites').set('Cookie', COOKIE).expect(200);
    assert.doesNotMatch(page.text, /New Site/);
  });

  it('creates the Site with the name typed, then says what comes next', async () => {
    const app = appWith({ ...ACCOUNT, 'POST /v1.1/account/sites': site(4, 'Development') });
    const made = await post(app, { name: '  Development ' }).expect(303);
    assert.equal(made.headers.location, '/app/sites?done=created');
    const call = app.calls.find((c) => c.method === 'POST');
    assert.deepEqual(
      [call?.path, call?.body, call?.bearer],
      ['/v1.1/account/sites', { name: 'Development' }, SESSION],
    );
    const after = await request(app.callback)
      .get('/app/sites?done=created')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(after.text, /The Site was created, with you as its member/);
  });

  it('shows a refusal beside the name, keeping it; the anti-forgery token is required', async () => {
    const app = appWith({
      ...ACCOUNT,
      'POST /v1.1/account/sites': apiProblem(
        409,
        'site_name_taken',
        'The account has a site named "Production".',
        'name',
        'is the name of another Site of the account',
      ),
    });
    const refused = await post(app, { name: 'Production' }).expect(409);
    assert.match(
      refused.text,
      /id="new-site-name-error"[^>]*>[\s\S]*?is the name of another Site of the account/,
    );
    assert.match(
      refused.text,
      /id="new-site-name"[^>]*value="Production"|value="Production"[^>]*id="new-site-name"/,
    );
    await request(app.callback)
      .post('/app/sites/new')
      .set('Cookie', COOKIE)
      .type('form')
      .send({ _csrf: csrfTokenOf('ses_another'), name: 'X' })
      .expect(403);
    assert.equal(app.calls.filter((c) => c.method === 'POST').length, 1);
  });
});

describe('web: account admins rename a Site and set its signers’ language (ADR 3070, ADR 2320)', () => {
  const save = (app: ReturnType<typeof appWith>, fields: Record<string, string>) =>
    request(app.callback)
      .post('/app/sites/3/settings')
      .set('Cookie', COOKIE)
      .type('form')
      .send({ _csrf: csrfTokenOf(SESSION), ...fields });

  it('shows each Site’s name and language, keeping a tag set through the API', async () => {
    const app = appWith({
      ...ACCOUNT,
      'GET /v1.1/account/sites?per_page=100': {
        ...ACCOUNT['GET /v1.1/account/sites?per_page=100'],
        data: [{ ...site(3, 'Production'), default_locale: 'pt-BR' }],
      },
    });
    const page = await request(app.callback).get('/app/sites').set('Cookie', COOKIE).expect(200);
    assert.match(page.text, /action="\/app\/sites\/3\/settings"/);
    assert.match(page.text, /<label for="name-3">Name of Production<\/label>/);
    assert.match(page.text, /id="name-3"[\s\S]*?value="Production"/);
    assert.match(page.text, /<option value="pt-BR"\s+selected>\s*Brazilian Portuguese \(pt-BR\)/);
    assert.match(page.text, /<option value="fr"\s*>\s*French \(fr\)/);
    assert.match(page.text, />Save Production<\/button>/);
  });

  it('saves the name typed and the language chosen; none chosen clears it', async () => {
    const app = appWith({ ...ACCOUNT, 'PATCH /v1.1/account/sites/3': site(3, 'Live') });
    const saved = await save(app, { name: ' Live ', default_locale: 'de' }).expect(303);
    assert.equal(saved.headers.location, '/app/sites?done=saved');
    await save(app, { name: 'Live', default_locale: '' }).expect(303);
    assert.deepEqual(
      app.calls.filter((c) => c.method === 'PATCH').map((c) => [c.path, c.body]),
      [
        ['/v1.1/account/sites/3', { name: 'Live', default_locale: 'de' }],
        ['/v1.1/account/sites/3', { name: 'Live', default_locale: null }],
      ],
    );
    const after = await request(app.callback).get('/app/sites?done=saved').set('Cookie', COOKIE).expect(200);
    assert.match(after.text, /The Site’s settings were saved/);
  });

  it('shows a taken name beside the field, keeping what was typed; the anti-forgery token is required', async () => {
    const app = appWith({
      ...ACCOUNT,
      'PATCH /v1.1/account/sites/3': apiProblem(
        409,
        'site_name_taken',
        'The account has a site named "Development".',
        'name',
        'is the name of another Site of the account',
      ),
    });
    const refused = await save(app, { name: 'Development', default_locale: 'es' }).expect(409);
    assert.match(refused.text, /id="name-3-error"[^>]*>[\s\S]*?is the name of another Site of the account/);
    assert.match(refused.text, /id="name-3"[\s\S]*?value="Development"/);
    assert.match(refused.text, /<option value="es"\s+selected>/);
    await request(app.callback)
      .post('/app/sites/3/settings')
      .set('Cookie', COOKIE)
      .type('form')
      .send({ _csrf: csrfTokenOf('ses_another'), name: 'X' })
      .expect(403);
    assert.equal(app.calls.filter((c) => c.method === 'PATCH').length, 1);
  });
});

describe('web: the account’s name on the Sites page (ADR 3080)', () => {
  const rename = (app: ReturnType<typeof appWith>, name: string) =>
    request(app.callback)
      .post('/app/sites/account')
      .set('Cookie', COOKIE)
      .type('form')
      .send({ _csrf: csrfTokenOf(SESSION), name });

  it('names the account to every user; only an admin gets the form to rename it', async () => {
    const admin = await request(appWith(ACCOUNT).callback)
      .get('/app/sites')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(admin.text, /Your account is <strong>Acme<\/strong>/);
    assert.match(admin.text, /action="\/app\/sites\/account"/);
    assert.match(admin.text, /id="account-name-field"[\s\S]*?value="Acme"/);
    const member = appWith({
      ...ACCOUNT,
      'GET /v1.1/sessions/current': { ...CURRENT, account_admin: false },
    });
    const page = await request(member.callback).get('/app/sites').set('Cookie', COOKIE).expect(200);
    assert.match(page.text, /Your account is <strong>Acme<\/strong>/);
    assert.doesNotMatch(page.text, /sites\/account/);
    const two = appWith({
      ...ACCOUNT,
      'GET /v1.1/account': { ...ACCOUNT_VIEW, admins: ['a@acme.test', 'b@acme.test', 'c@acme.test'] },
    });
    const listed = await request(two.callback).get('/app/sites').set('Cookie', COOKIE).expect(200);
    assert.match(
      listed.text.replace(/\s+/g, ' '),
      /Its administrators are <a href="mailto:a@acme\.test">a@acme\.test<\/a>, <a href="mailto:b@acme\.test">b@acme\.test<\/a> and <a href="mailto:c@acme\.test">c@acme\.test<\/a>\./,
    );
  });

  it('renames with the name typed, trimmed; a refusal keeps it beside the field', async () => {
    const app = appWith({ ...ACCOUNT, 'PATCH /v1.1/account': { ...ACCOUNT_VIEW, name: 'Acme Holdings' } });
    const done = await rename(app, ' Acme Holdings ').expect(303);
    assert.equal(done.headers.location, '/app/sites?done=renamed');
    assert.deepEqual(
      app.calls.filter((c) => c.method === 'PATCH').map((c) => [c.path, c.body]),
      [['/v1.1/account', { name: 'Acme Holdings' }]],
    );
    const refusing = appWith({
      ...ACCOUNT,
      'PATCH /v1.1/account': apiProblem(422, 'invalid_body', 'The body is not valid.', 'name', 'is too long'),
    });
    const refused = await rename(refusing, 'x'.repeat(201)).expect(422);
    assert.match(refused.text, /id="account-name-field-error"[^>]*>[\s\S]*?is too long/);
    assert.match(refused.text, new RegExp(`id="account-name-field"[\\s\\S]*?value="${'x'.repeat(201)}"`));
  });
});
