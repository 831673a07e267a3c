import assert from 'node:assert/strict';
import request from 'supertest';
import { csrfTokenOf } from '../../src/cookies.js';
import { COOKIE, postAsAdmin } from '../support/account-users.js';
import { apiProblem, appWith, CURRENT, page, SESSION } from '../support/fake-api.js';

const LIST = 'GET /v1.1/sessions?per_page=100';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.85 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

const session = (id: string, current: boolean, address: string | null, userAgent: string | null) => ({
  id,
  created_at: current ? '2030-01-02T09:15:42.000Z' : '2030-01-01T18:40:05.000Z',
  expires_at: '2030-01-31T00:00:00.000Z',
  current,
  client_address: address,
  user_agent: userAgent,
  last_active_at: current ? '2030-01-02T10:07:13.000Z' : '2030-01-01T21:02:30.000Z',
});
const THIS = session('s-this', true, '192.0.2.1', CHROME);
const OTHER = session('s-other', false, '198.51.100.7', FIREFOX);
/** Begun before ADR 3100 and ADR 3110, not used since: nothing known of it but its times. */
const OLD = { ...session('s-old', false, null, null), last_active_at: null };

const signedIn = (answers: Record<string, unknown>) =>
  appWith({ 'GET /v1.1/sessions/current': CURRENT, ...answers });

/** The table row (`<tr>…</tr>`) holding `text`. */
const rowOf = (html: string, text: string): string => {
  const row = html.split('<tr>').find((r) => r.includes(text));
  assert.ok(row, `a row with ${text}`);
  return row.slice(0, row.indexOf('</tr>'));
};

const deletes = (app: ReturnType<typeof appWith>) =>
  app.calls.filter((c) => c.method === 'DELETE').map((c) => [c.path, c.bearer]);

describe('web: where the user is signed in (ADR 3100)', () => {
  it('is linked from every page and lists the sessions: this browser marked, unknowns said so', async () => {
    const app = signedIn({ [LIST]: page([THIS, OTHER, OLD]) });
    const res = await request(app.callback).get('/app/sessions').set('Cookie', COOKIE).expect(200);
    assert.deepEqual(
      app.calls.filter((c) => c.path.startsWith('/v1.1/sessions?')).map((c) => c.bearer),
      [SESSION],
      'the list is asked for with the session credential',
    );
    assert.match(res.text, /<title>Sessions · E-sign<\/title>/);
    assert.match(res.text, /<h1>Where you are signed in<\/h1>/);
    assert.match(res.text, /href="\/app\/sessions">Sessions</);
    assert.match(res.text, /<caption class="visually-hidden">Where you are signed in<\/caption>/);
    assert.match(
      res.text,
      /<th scope="col">Began<\/th>\s*<th scope="col">From<\/th>\s*<th scope="col">Browser<\/th>\s*<th scope="col">Last active<\/th>/,
    );

    const own = rowOf(res.text, '192.0.2.1');
    assert.match(own, /<time datetime="2030-01-02T09:15:42.000Z">2030-01-02 09:15:42 UTC<\/time>/);
    assert.match(own, /<span title="Mozilla\/5\.0 \(X11; Linux x86_64\)[^"]*">Chrome 131 on Linux<\/span>/);
    assert.match(own, /<span class="state state-active">This browser<\/span>/);
    assert.match(
      own,
      /This browser<\/span><\/td>\s*<td><time datetime="2030-01-02T10:07:13.000Z">2030-01-02 10:07:13 UTC<\/time><\/td>/,
      'when it was last used, after the browser',
    );
    assert.match(own, /action="\/app\/sign-out"[\s\S]*?aria-label="Sign out of this browser">Sign out</);
    assert.doesNotMatch(own, />End</);

    const other = rowOf(res.text, '198.51.100.7');
    assert.match(other, />Firefox 133 on Windows</);
    assert.match(other, /<time datetime="2030-01-01T21:02:30.000Z">2030-01-01 21:02:30 UTC<\/time>/);
    assert.doesNotMatch(other, /This browser/);
    assert.match(
      other,
      /action="\/app\/sessions\/s-other\/end"[\s\S]*?<button type="submit" class="danger" aria-label="End the session that began 2030-01-01 18:40 UTC from 198\.51\.100\.7 \(Firefox 133 on Windows\)">End</,
    );

    const old = rowOf(res.text, '/app/sessions/s-old/end');
    assert.equal(
      old.match(/<span class="hint">unknown<\/span>/g)?.length,
      3,
      'address, browser and when last active',
    );
    assert.match(old, /aria-label="End the session that began 2030-01-01 18:40 UTC from an unknown address"/);

    assert.match(res.text, /action="\/app\/sessions\/end-others"[\s\S]*?>Sign out everywhere else</);
    for (const form of res.text.match(/<form method="post" action="\/app\/sessions[^"]*"[\s\S]*?<\/form>/g) ??
      [])
      assert.match(form, new RegExp(`name="_csrf" value="${csrfTokenOf(SESSION)}"`));
  });

  it('offers no Sign out everywhere else while this browser is the only session', async () => {
    const res = await request(signedIn({ [LIST]: page([THIS]) }).callback)
      .get('/app/sessions')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.doesNotMatch(res.text, /Sign out everywhere else/);
    assert.doesNotMatch(res.text, /end-others/);
    assert.match(res.text, /You are signed in in this browser only\./);
  });

  it('labels what it can: a script’s User-Agent as sent, a long unknown one cut short', async () => {
    const long = `SomeTool/${'x'.repeat(100)}`;
    const res = await request(
      signedIn({
        [LIST]: page([
          THIS,
          session('s-curl', false, '::1', 'curl/8.5.0'),
          session('s-long', false, '::1', long),
        ]),
      }).callback,
    )
      .get('/app/sessions')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(rowOf(res.text, 's-curl'), /<span title="curl\/8\.5\.0">curl\/8\.5\.0<\/span>/);
    assert.match(rowOf(res.text, 's-long'), new RegExp(`title="${long}">SomeTool/x{50}…</span>`));
  });

  it('ends another session with the session credential, then says so', async () => {
    const app = signedIn({ [LIST]: page([THIS, OTHER]), 'DELETE /v1.1/sessions/s-other': '' });
    const res = await postAsAdmin(app, '/app/sessions/s-other/end', {}).expect(303);
    assert.equal(res.headers.location, '/app/sessions?done=ended');
    assert.deepEqual(deletes(app), [['/v1.1/sessions/s-other', SESSION]]);
    const after = await request(app.callback)
      .get('/app/sessions?done=ended')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(after.text, /role="status">The session was ended: that browser is signed out\.</);
  });

  it('comes back with a neutral notice when the session had already ended (404)', async () => {
    const app = signedIn({
      [LIST]: page([THIS]),
      'DELETE /v1.1/sessions/s-gone': apiProblem(404, 'not_found', 'No such session.'),
    });
    const res = await postAsAdmin(app, '/app/sessions/s-gone/end', {}).expect(303);
    assert.equal(res.headers.location, '/app/sessions?done=gone');
    const after = await request(app.callback)
      .get('/app/sessions?done=gone')
      .set('Cookie', COOKIE)
      .expect(200);
    assert.match(after.text, /role="status">That session had already ended: nothing more to do\.</);
    assert.doesNotMatch(after.text, /role="alert"/);
  });

  it('shows any other refusal of End as a problem page', async () => {
    const app = signedIn({
      'DELETE /v1.1/sessions/s-other': apiProblem(503, 'unavailable', 'Auth is down.'),
    });
    const res = await postAsAdmin(app, '/app/sessions/s-other/end', {}).expect(503);
    assert.match(res.text, /role="alert"><p>Auth is down\.<\/p>/);
  });

  it('signs out everywhere else and names how many sessions that ended', async () => {
    const app = signedIn({ [LIST]: page([THIS]), 'DELETE /v1.1/sessions/others': { sessions_ended: 2 } });
    const res = await postAsAdmin(app, '/app/sessions/end-others', {}).expect(303);
    assert.equal(res.headers.location, '/app/sessions?done=others&ended=2');
    assert.deepEqual(deletes(app), [['/v1.1/sessions/others', SESSION]]);
    const get = (query: string) =>
      request(app.callback).get(`/app/sessions?${query}`).set('Cookie', COOKIE).expect(200);
    assert.match((await get('done=others&ended=2')).text, /role="status">2 other sessions were ended: those/);
    assert.match((await get('done=others&ended=1')).text, /role="status">1 other session was ended: that/);
    assert.doesNotMatch((await get('done=others&ended=lots')).text, /role="status"/);
  });

  it('refuses a form without the session’s anti-forgery token, ending nothing', async () => {
    const app = signedIn({
      'DELETE /v1.1/sessions/s-other': '',
      'DELETE /v1.1/sessions/others': { sessions_ended: 1 },
    });
    for (const path of ['/app/sessions/s-other/end', '/app/sessions/end-others']) {
      await request(app.callback).post(path).set('Cookie', COOKIE).type('form').send({}).expect(403);
      await request(app.callback)
        .post(path)
        .set('Cookie', COOKIE)
        .type('form')
        .send({ _csrf: csrfTokenOf('ses_another-session') })
        .expect(403);
    }
    assert.deepEqual(deletes(app), []);
  });

  it('is linked from the password page', async () => {
    const res = await request(signedIn({}).callback).get('/app/password').set('Cookie', COOKIE).expect(200);
    assert.match(res.text, /<a href="\/app\/sessions">where you are signed in<\/a>/);
  });
});
