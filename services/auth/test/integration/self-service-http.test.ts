import assert from 'node:assert/strict';
import request from 'supertest';
import { AppList, CreatedTokenView, CurrentSessionView, SessionView, TokenList } from '@esign/contracts';
import { setApiAccess } from '../../src/application/create-account.js';
import { setUserDisabled } from '../../src/application/users.js';
import { PASSWORD, seedAccount, startHarness, type Harness } from '../support/harness.js';
import { is } from '../support/http-body.js';

describe('auth: self-service HTTP API', () => {
  let h: Harness;
  let seeded: Awaited<ReturnType<typeof seedAccount>>;

  before(async () => {
    h = await startHarness('auth_self_service');
    seeded = await seedAccount(h.deps, {
      sites: ['Production', 'Development'],
      users: { 'dev@acme.test': ['Production', 'Development'], 'other@acme.test': ['Development'] },
    });
  });
  after(() => h.close());
  afterEach(() => h.clock.reset());

  const signIn = async (email = 'dev@acme.test') => {
    const response = await request(h.callback)
      .post('/v1.1/sessions')
      .send({ email, password: PASSWORD })
      .expect(201);
    return is(SessionView, response.body).session_token;
  };
  const as = (session: string) => ({
    get: (path: string) => request(h.callback).get(path).set('Authorization', `Bearer ${session}`),
    post: (path: string) => request(h.callback).post(path).set('Authorization', `Bearer ${session}`),
    delete: (path: string) => request(h.callback).delete(path).set('Authorization', `Bearer ${session}`),
  });

  it('signs in with any casing of the address, answers who is signed in and their sites, signs out', async () => {
    const response = await request(h.callback)
      .post('/v1.1/sessions')
      .send({ email: 'DEV@Acme.Test', password: PASSWORD })
      .expect(201);
    const session = is(SessionView, response.body);
    assert.match(session.session_token, /^ses_[A-Za-z0-9_-]{43}$/);
    assert.equal(response.headers['cache-control'], 'no-store');
    const current = is(
      CurrentSessionView,
      (await as(session.session_token).get('/v1.1/sessions/current').expect(200)).body,
    );
    assert.equal(current.user.email, 'dev@acme.test');
    assert.deepEqual(
      current.sites.map((s) => s.name),
      ['Production', 'Development'],
    );
    await as(session.session_token).delete('/v1.1/sessions/current').expect(204);
    const after = await as(session.session_token).get('/v1.1/sessions/current').expect(401);
    assert.equal(after.body.code, 'session_invalid');
  });

  it('answers a wrong password and an unknown address alike, as problem+json', async () => {
    const wrong = await request(h.callback)
      .post('/v1.1/sessions')
      .send({ email: 'dev@acme.test', password: 'nope' })
      .expect(401);
    const unknown = await request(h.callback)
      .post('/v1.1/sessions')
      .send({ email: 'nobody@acme.test', password: 'nope' })
      .expect(401);
    assert.match(String(wrong.headers['content-type']), /^application\/problem\+json/);
    assert.equal(wrong.body.code, 'invalid_credentials');
    assert.equal(unknown.body.code, wrong.body.code);
    assert.equal(unknown.body.detail, wrong.body.detail);
  });

  it('names each bad field of a body, and refuses unknown ones', async () => {
    const response = await request(h.callback)
      .post('/v1.1/sessions')
      .send({ email: 'not-an-address', passwd: 'x' })
      .expect(422);
    assert.deepEqual(response.body.errors, [{ path: 'passwd', message: 'unknown field' }]);
    const missing = await request(h.callback)
      .post('/v1.1/sessions')
      .send({ email: 'not-an-address' })
      .expect(422);
    assert.deepEqual(missing.body.errors, [
      { path: 'email', message: 'must be an e-mail address' },
      { path: 'password', message: 'required' },
    ]);
    const session = await signIn();
    const badToken = await as(session)
      .post('/v1.1/apps/00000000-0000-4000-8000-000000000000/tokens')
      .send({ password: PASSWORD, expires_in_days: 400, name: '' })
      .expect(422);
    assert.deepEqual(badToken.body.errors, [
      { path: 'name', message: 'must not be empty' },
      { path: 'expires_in_days', message: 'must be an integer from 1 to 365' },
    ]);
  });

  it('wants a session on every self-service route', async () => {
    for (const [method, path] of [
      ['get', '/v1.1/apps'],
      ['post', '/v1.1/apps'],
      ['get', '/v1.1/tokens'],
      ['delete', '/v1.1/tokens/x'],
      ['get', '/v1.1/sessions/current'],
    ] as const) {
      const response = await request(h.callback)[method](path).expect(401);
      assert.equal(response.body.code, 'session_required', `${method} ${path}`);
      assert.equal(response.headers['www-authenticate'], 'Bearer');
    }
    const bogus = await request(h.callback)
      .get('/v1.1/apps')
      .set('Authorization', 'Bearer ses_bogus')
      .expect(401);
    assert.equal(bogus.body.code, 'session_invalid');
  });

  it('expires a session after its lifetime', async () => {
    const session = await signIn();
    h.clock.shift(3601);
    const response = await as(session).get('/v1.1/apps').expect(401);
    assert.equal(response.body.code, 'session_invalid');
  });

  it("makes, lists, shows and deletes Developer Apps; a deleted app's tokens stop", async () => {
    const session = await signIn();
    const created = await as(session).post('/v1.1/apps').send({ name: 'Nightly export' }).expect(201);
    assert.equal(created.headers.location, `/v1.1/apps/${created.body.id as string}`);
    assert.equal(created.body.client_id, created.body.id);
    assert.equal(created.body.has_client_secret, false);
    const list = is(AppList, (await as(session).get('/v1.1/apps?per_page=1').expect(200)).body);
    assert.equal(list.per_page, 1);
    assert.equal(list.count, 1);
    assert.ok(list.total_count >= 1);
    await as(session)
      .get(`/v1.1/apps/${created.body.id as string}`)
      .expect(200);
    const token = await as(session)
      .post(`/v1.1/apps/${created.body.id as string}/tokens`)
      .send({ password: PASSWORD })
      .expect(201);
    await as(session)
      .delete(`/v1.1/apps/${created.body.id as string}`)
      .expect(204);
    await as(session)
      .get(`/v1.1/apps/${created.body.id as string}`)
      .expect(404);
    const shown = await as(session)
      .get(`/v1.1/tokens/${token.body.id as string}`)
      .expect(200);
    assert.equal(shown.body.state, 'revoked');
  });

  it('creates a token shown once, lists it without the token, and revokes it', async () => {
    const session = await signIn();
    const app = (await as(session).post('/v1.1/apps').send({ name: 'CI' }).expect(201)).body as {
      id: string;
    };
    const created = await as(session)
      .post(`/v1.1/apps/${app.id}/tokens`)
      .send({ password: PASSWORD, name: 'deploy', expires_in_days: 30 })
      .expect(201);
    const token = is(CreatedTokenView, created.body);
    assert.equal(token.token_type, 'Bearer');
    assert.equal(token.expires_in, 30 * 86_400);
    assert.equal(token.state, 'active');
    assert.equal(token.origin, 'self_service');
    assert.equal(created.headers['cache-control'], 'no-store');

    const list = is(TokenList, (await as(session).get(`/v1.1/tokens?app_id=${app.id}`).expect(200)).body);
    assert.equal(list.total_count, 1);
    assert.equal(list.data[0]!.id, token.id);
    assert.ok(!JSON.stringify(list).includes(token.access_token), 'a list never shows the token');
    assert.equal((await as(session).get(`/v1.1/apps/${app.id}/tokens`).expect(200)).body.total_count, 1);

    await as(session).delete(`/v1.1/tokens/${token.id}`).expect(204);
    await as(session).delete(`/v1.1/tokens/${token.id}`).expect(204);
    const revoked = (await as(session).get(`/v1.1/tokens/${token.id}`).expect(200)).body as {
      state: string;
      revoked_at: string;
    };
    assert.equal(revoked.state, 'revoked');
    assert.ok(revoked.revoked_at !== null);
  });

  it("hides other users' apps and tokens (404), and answers malformed ids 404 too", async () => {
    const mine = await signIn();
    const theirs = await signIn('other@acme.test');
    const app = (await as(theirs).post('/v1.1/apps').send({ name: 'Theirs' }).expect(201)).body as {
      id: string;
    };
    const token = (
      await as(theirs).post(`/v1.1/apps/${app.id}/tokens`).send({ password: PASSWORD }).expect(201)
    ).body as {
      id: string;
    };
    await as(mine).get(`/v1.1/apps/${app.id}`).expect(404);
    await as(mine).post(`/v1.1/apps/${app.id}/tokens`).send({ password: PASSWORD }).expect(404);
    await as(mine).delete(`/v1.1/apps/${app.id}`).expect(404);
    await as(mine).get(`/v1.1/tokens/${token.id}`).expect(404);
    await as(mine).delete(`/v1.1/tokens/${token.id}`).expect(404);
    await as(mine).get('/v1.1/tokens/not-a-uuid').expect(404);
    await as(mine).get('/v1.1/apps/123').expect(404);
    const list = (await as(mine).get(`/v1.1/tokens?app_id=${app.id}`).expect(200)).body as {
      total_count: number;
    };
    assert.equal(list.total_count, 0);
  });

  it('refuses bad paging and filters with 400 naming the parameter', async () => {
    const session = await signIn();
    const response = await as(session).get('/v1.1/tokens?page=0&per_page=101').expect(400);
    assert.deepEqual(response.body.errors, [
      { path: 'page', message: 'must be an integer from 1 to 1000000' },
      { path: 'per_page', message: 'must be an integer from 1 to 100' },
    ]);
    const filter = await as(session).get('/v1.1/tokens?app_id=nope').expect(400);
    assert.deepEqual(filter.body.errors, [{ path: 'app_id', message: 'must be an app id' }]);
  });

  it('makes a client secret only with the password, shows it once, and removes it', async () => {
    const session = await signIn('other@acme.test');
    const app = (await as(session).post('/v1.1/apps').send({ name: 'Machine' }).expect(201)).body as {
      id: string;
    };
    const wrong = await as(session)
      .post(`/v1.1/apps/${app.id}/client-secret`)
      .send({ password: 'nope' })
      .expect(401);
    assert.equal(wrong.body.code, 'invalid_password');
    const secret = await as(session)
      .post(`/v1.1/apps/${app.id}/client-secret`)
      .send({ password: PASSWORD })
      .expect(201);
    assert.equal(secret.body.client_id, app.id);
    assert.match(secret.body.client_secret as string, /^ecs_/);
    assert.equal((await as(session).get(`/v1.1/apps/${app.id}`).expect(200)).body.has_client_secret, true);
    await as(session).delete(`/v1.1/apps/${app.id}/client-secret`).expect(204);
    assert.equal((await as(session).get(`/v1.1/apps/${app.id}`).expect(200)).body.has_client_secret, false);
  });

  it('turns away users without API access or disabled, even with a live session', async () => {
    const session = await signIn('other@acme.test');
    await setApiAccess(h.deps)({ accountId: seeded.account.id, enabled: false })();
    try {
      const response = await as(session).get('/v1.1/apps').expect(403);
      assert.equal(response.body.code, 'api_access_required');
      const signIn403 = await request(h.callback)
        .post('/v1.1/sessions')
        .send({ email: 'other@acme.test', password: PASSWORD })
        .expect(403);
      assert.equal(signIn403.body.code, 'api_access_required');
    } finally {
      await setApiAccess(h.deps)({ accountId: seeded.account.id, enabled: true })();
    }
    const other = seeded.users.get('other@acme.test')!;
    await setUserDisabled(h.deps)({ userId: other.id, disabled: true })();
    try {
      // Disabling ends sessions.
      assert.equal((await as(session).get('/v1.1/apps').expect(401)).body.code, 'session_invalid');
    } finally {
      await setUserDisabled(h.deps)({ userId: other.id, disabled: false })();
    }
  });

  it('throttles sign-in attempts per address with 429 and Retry-After', async () => {
    const seed2 = await seedAccount(h.deps, {
      name: 'Throttle',
      sites: [],
      users: { 'victim@acme.test': [] },
    });
    assert.ok(seed2.users.size === 1);
    for (let i = 0; i < 5; i++)
      await request(h.callback)
        .post('/v1.1/sessions')
        .send({ email: 'victim@acme.test', password: 'guess' })
        .expect(401);
    const blocked = await request(h.callback)
      .post('/v1.1/sessions')
      .send({ email: 'victim@acme.test', password: PASSWORD })
      .expect(429);
    assert.equal(blocked.body.code, 'too_many_attempts');
    assert.equal(blocked.headers['retry-after'], '30');
  });

  it('counts parallel guesses too', async () => {
    await seedAccount(h.deps, { name: 'Parallel', sites: [], users: { 'parallel@acme.test': [] } });
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () =>
        request(h.callback).post('/v1.1/sessions').send({ email: 'parallel@acme.test', password: 'guess' }),
      ),
    );
    const counts = statuses.reduce<Record<number, number>>(
      (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
      {},
    );
    assert.deepEqual(counts, { 401: 5, 429: 7 });
  });
});
