import assert from 'node:assert/strict';
import * as iots from 'io-ts';
import request from 'supertest';
import { OtherSessionsEndedView, SessionView, SignedInSessionList } from '@esign/contracts';
import { db, sql } from '@esign/platform/database';
import { NullableTimestamp } from '../../src/adapters/postgres/rows.js';
import { PASSWORD, seedAccount } from '../support/harness.js';
import { is, pathsOf } from '../support/http-body.js';
import { introspectedHarness } from '../support/introspected-harness.js';
import { valueOf } from '../support/port-task.js';

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** ADR 3100: a user lists where they are signed in and ends any of it (real Postgres). */
describe('auth: where a user is signed in, and ending it, over HTTP (real Postgres)', () => {
  const t = introspectedHarness('auth_sessions', async (deps) => ({
    acme: await seedAccount(deps, {
      sites: ['Production'],
      users: { 'dev@acme.test': ['Production'], 'ops@acme.test': ['Production'] },
    }),
  }));
  const signIn = async (email: string, userAgent?: string) => {
    const call = request(t.harness().callback).post('/v1.1/sessions');
    if (userAgent !== undefined) void call.set('User-Agent', userAgent);
    return is(SessionView, (await call.send({ email, password: PASSWORD }).expect(201)).body).session_token;
  };
  const as = (session: string) => ({
    list: (query = '') =>
      request(t.harness().callback).get(`/v1.1/sessions${query}`).set('Authorization', `Bearer ${session}`),
    end: (id: string) =>
      request(t.harness().callback).delete(`/v1.1/sessions/${id}`).set('Authorization', `Bearer ${session}`),
    endOthers: () =>
      request(t.harness().callback).delete('/v1.1/sessions/others').set('Authorization', `Bearer ${session}`),
    current: () =>
      request(t.harness().callback).get('/v1.1/sessions/current').set('Authorization', `Bearer ${session}`),
  });
  const production = () => t.seeded().acme.sites.get('Production')!.id;

  it('lists the sessions with the address and User-Agent each signed in from; never a credential', async () => {
    const first = await signIn('dev@acme.test', `${CHROME}\t\tX-Tab: 1`);
    const second = await signIn('dev@acme.test');
    const listed = is(SignedInSessionList, (await as(second).list().expect(200)).body);
    assert.equal(listed.total_count, 2);
    const [newest, older] = listed.data;
    assert.deepEqual(
      [newest!.current, older!.current, older!.user_agent],
      [true, false, `${CHROME} X-Tab: 1`],
    );
    assert.match(String(newest!.client_address), /127\.0\.0\.1|::1/, 'the socket peer: no proxy is trusted');
    assert.equal(newest!.user_agent, null, 'supertest sends no User-Agent');
    assert.deepEqual(Object.keys(newest!).sort(), [
      'client_address',
      'created_at',
      'current',
      'expires_at',
      'id',
      'last_active_at',
      'user_agent',
    ]);
    assert.doesNotMatch(JSON.stringify(listed), /ses_/);
    const bad = await as(first).list('?per_page=0').expect(400);
    assert.equal(bad.body.code, 'invalid_query');
    assert.deepEqual(pathsOf(bad.body), ['per_page']);
    await request(t.harness().callback).get('/v1.1/sessions').expect(401);
  });

  it('ending one stops its credential and its access tokens at once; another user’s is 404', async () => {
    const laptop = await signIn('dev@acme.test');
    const phone = await signIn('dev@acme.test');
    const phoneToken = await t.accessTokenOf(phone);
    assert.equal((await t.check(`Bearer ${phoneToken}`, production())).status, 200);
    const phoneId = is(SignedInSessionList, (await as(phone).list().expect(200)).body).data.find(
      (s) => s.current,
    )!.id;

    const ops = await signIn('ops@acme.test');
    const foreign = await as(ops).end(phoneId).expect(404);
    assert.equal(foreign.body.code, 'not_found');
    await as(ops).end('not-a-uuid').expect(404);
    await as(phone).current().expect(200);

    await as(laptop).end(phoneId).expect(204);
    await as(phone).current().expect(401);
    assert.equal((await t.check(`Bearer ${phoneToken}`, production())).status, 401, 'its access token too');
    await as(laptop).end(phoneId).expect(204);
    await as(laptop).current().expect(200);
  });

  it('signs out everywhere else, and answers how many it ended', async () => {
    const kept = await signIn('ops@acme.test');
    const others = [await signIn('ops@acme.test'), await signIn('ops@acme.test')];
    const dev = await signIn('dev@acme.test');
    const before = is(SignedInSessionList, (await as(kept).list().expect(200)).body).total_count;
    const ended = is(OtherSessionsEndedView, (await as(kept).endOthers().expect(200)).body);
    assert.equal(ended.sessions_ended, before - 1);
    for (const other of others) await as(other).current().expect(401);
    await as(kept).current().expect(200);
    await as(dev).current().expect(200);
    assert.equal(is(SignedInSessionList, (await as(kept).list().expect(200)).body).total_count, 1);
    assert.equal(is(OtherSessionsEndedView, (await as(kept).endOthers().expect(200)).body).sessions_ended, 0);
  });

  describe('when each was last used, written at most once a minute (ADR 3110)', () => {
    afterEach(() => t.harness().clock.reset());
    const lastActive = async (id: string): Promise<Date | null> =>
      (
        await db.one(
          t.harness().pool,
          iots.type({ last_active_at: NullableTimestamp }),
          sql.unsafe`SELECT last_active_at FROM sessions WHERE id = ${id}`,
        )
      ).last_active_at;

    it('a use within the minute writes nothing; one after it writes its time, by credential or access token', async () => {
      // Only `shift` moves the clock: nothing here depends on how fast the machine is.
      const clock = t.harness().clock;
      clock.freeze();
      const began = clock.now();
      const after = (seconds: number) => new Date(began.getTime() + seconds * 1000);
      const session = await signIn('dev@acme.test');
      const accessToken = await t.accessTokenOf(session);
      const listed = is(SignedInSessionList, (await as(session).list().expect(200)).body).data;
      const mine = listed.find((s) => s.current)!;
      assert.equal(mine.last_active_at, began.toISOString(), 'a new session was last active when it began');
      assert.equal(mine.last_active_at, mine.created_at);

      clock.shift(59);
      await as(session).current().expect(200);
      assert.equal((await t.check(`Bearer ${accessToken}`, production())).status, 200);
      assert.deepEqual(await lastActive(mine.id), began, 'within the minute: not written');

      clock.shift(2);
      assert.equal((await t.check(`Bearer ${accessToken}`, production())).status, 200);
      assert.deepEqual(await lastActive(mine.id), after(61), 'a use of its access token is a use of it');

      clock.shift(30);
      await as(session).current().expect(200);
      assert.deepEqual(await lastActive(mine.id), after(61));
      clock.shift(31);
      await as(session).current().expect(200);
      assert.deepEqual(await lastActive(mine.id), after(122), 'a use of its credential');
      const relisted = is(SignedInSessionList, (await as(session).list().expect(200)).body).data;
      assert.equal(relisted.find((s) => s.current)!.last_active_at, after(122).toISOString());
    });

    it('the write’s own guard holds when two uses meet; a session from before is null until used', async () => {
      const clock = t.harness().clock;
      clock.freeze();
      const old = await signIn('ops@acme.test');
      const asker = await signIn('ops@acme.test');
      const oldId = is(SignedInSessionList, (await as(old).list().expect(200)).body).data.find(
        (s) => s.current,
      )!.id;
      const record = (seconds: number) =>
        valueOf(
          t
            .harness()
            .deps.sessions.recordActivity(oldId, new Date(clock.now().getTime() + seconds * 1000), 60),
        );
      assert.equal(await record(60), false, 'a minute to the millisecond: not yet');
      assert.equal(await record(61), true);
      assert.equal(await record(90), false, 'another replica, a moment later');

      await db.exec(
        t.harness().pool,
        sql.unsafe`UPDATE sessions SET last_active_at = NULL WHERE id = ${oldId}`,
      );
      const listed = is(SignedInSessionList, (await as(asker).list().expect(200)).body).data;
      assert.equal(listed.find((s) => s.id === oldId)!.last_active_at, null);
      await as(old).current().expect(200);
      assert.deepEqual(await lastActive(oldId), clock.now(), 'written at its first use');
    });
  });
});
