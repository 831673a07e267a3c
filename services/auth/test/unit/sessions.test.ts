import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { SESSION_USER_AGENT_MAX } from '@esign/contracts';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { endOtherSessions, endSession, listSessions } from '../../src/application/sessions.js';
import { signIn } from '../../src/application/sign-in.js';
import { createUser } from '../../src/application/users.js';
import { keptUserAgent } from '../../src/domain/sessions.js';
import { left, right } from '../support/port-task.js';
import { PASSWORD, seed } from '../support/seeded-world.js';

const PAGE = { page: 1, perPage: 20 };
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** The seeded user signed in twice more, a minute apart, from a phone and a laptop. */
const signedInThrice = async () => {
  const s = await seed();
  const at = (email: string, client: string, userAgent?: string) =>
    right(signIn(s.deps)({ email, password: PASSWORD, client, ...(userAgent ? { userAgent } : {}) }));
  s.world.advance(60);
  const phone = await at('dev@acme.test', '198.51.100.7', 'Mobile\tSafari\r\n');
  s.world.advance(60);
  const laptop = await at('dev@acme.test', '203.0.113.9', FIREFOX);
  const asLaptop = await right(authenticateSession(s.deps)(laptop.sessionToken));
  const live = (token: string) => authenticateSession(s.deps)(token)().then(E.isRight);
  return { ...s, phone, laptop, asLaptop, live };
};

describe('auth use cases: where a user is signed in, and ending it (ADR 3100)', () => {
  it('lists the live sessions, newest first, with where each signed in from and which one asks', async () => {
    const s = await signedInThrice();
    const listed = await right(listSessions(s.deps)(s.asLaptop, PAGE));
    assert.deepEqual(
      listed.items.map((i) => [i.clientAddress, i.userAgent, i.current]),
      [
        ['203.0.113.9', FIREFOX, true],
        ['198.51.100.7', 'Mobile Safari', false],
        [null, null, false],
      ],
      'control characters become one space; the seed signed in with neither',
    );
    assert.equal(listed.total, 3);
    s.world.advance(3600 - 120);
    assert.deepEqual(
      (await right(listSessions(s.deps)(s.asLaptop, PAGE))).items.map((i) => i.clientAddress),
      ['203.0.113.9', '198.51.100.7'],
      'an expired one is not listed',
    );
  });

  it('ends one session at once; again changes nothing; another user’s or an unknown id is not found', async () => {
    const s = await signedInThrice();
    const phoneId = (await right(listSessions(s.deps)(s.asLaptop, PAGE))).items[1]!.id;
    await right(endSession(s.deps)(s.asLaptop, phoneId));
    assert.equal(await s.live(s.phone.sessionToken), false, 'the phone is signed out');
    assert.equal(await s.live(s.laptop.sessionToken), true);
    await right(endSession(s.deps)(s.asLaptop, phoneId));

    await right(createUser(s.deps)({ accountId: s.account.id, email: 'ops@acme.test', password: PASSWORD }));
    const ops = await right(signIn(s.deps)({ email: 'ops@acme.test', password: PASSWORD }));
    const asOps = await right(authenticateSession(s.deps)(ops.sessionToken));
    for (const id of [s.asLaptop.sessionId, 'not-a-session'])
      assert.deepEqual(await left(endSession(s.deps)(asOps, id)), {
        _tag: 'NotFound',
        entity: 'session',
        id,
      });
    assert.equal(await s.live(s.laptop.sessionToken), true, 'nobody else ends it');
  });

  it('ending the current session signs it out', async () => {
    const s = await signedInThrice();
    await right(endSession(s.deps)(s.asLaptop, s.asLaptop.sessionId));
    assert.equal(await s.live(s.laptop.sessionToken), false);
  });

  it('signs out everywhere else: every other live session of the user, and no one else’s', async () => {
    const s = await signedInThrice();
    await right(createUser(s.deps)({ accountId: s.account.id, email: 'ops@acme.test', password: PASSWORD }));
    const ops = await right(signIn(s.deps)({ email: 'ops@acme.test', password: PASSWORD }));
    assert.equal(await right(endOtherSessions(s.deps)(s.asLaptop)), 2);
    assert.deepEqual(
      await Promise.all([s.signedIn, s.phone, s.laptop, ops].map((x) => s.live(x.sessionToken))),
      [false, false, true, true],
    );
    assert.equal(await right(endOtherSessions(s.deps)(s.asLaptop)), 0, 'none left to end');
  });
});

describe('auth domain: what is kept of a User-Agent (ADR 3100)', () => {
  it('keeps one line of printable text, at most the limit, and nothing for an empty one', () => {
    assert.equal(keptUserAgent(undefined), null);
    assert.equal(keptUserAgent(' \t\r\n'), null);
    assert.equal(keptUserAgent('curl/8.5.0\u0000\u001b[31m'), 'curl/8.5.0 [31m');
    assert.equal(keptUserAgent('a\u0085b'), 'a b', 'C1 controls too');
    const long = '🙂'.repeat(SESSION_USER_AGENT_MAX + 10);
    assert.equal(
      [...keptUserAgent(long)!].length,
      SESSION_USER_AGENT_MAX,
      'counted in characters, not halves of one',
    );
  });
});
