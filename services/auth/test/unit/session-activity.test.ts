import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import type { Deps } from '../../src/application/deps.js';
import { ensureSigningKey } from '../../src/application/ensure-signing-key.js';
import { introspectToken } from '../../src/application/introspect-token.js';
import { endSession, listSessions } from '../../src/application/sessions.js';
import { sessionActivityDue, SESSION_ACTIVITY_EVERY_SECONDS } from '../../src/domain/sessions.js';
import { sessionTokenId } from '../../src/domain/tokens.js';
import { right, valueOf } from '../support/port-task.js';
import { seed } from '../support/seeded-world.js';

const PAGE = { page: 1, perPage: 20 };

describe('auth domain: when a session’s use is written down (ADR 3110)', () => {
  const at = new Date('2030-01-01T12:00:00.000Z');
  const ago = (seconds: number) => new Date(at.getTime() - seconds * 1000);

  it('is due when never written, or once the last write is more than a minute old', () => {
    assert.equal(SESSION_ACTIVITY_EVERY_SECONDS, 60);
    assert.equal(sessionActivityDue(null, at), true, 'a session from before ADR 3110');
    assert.equal(sessionActivityDue(at, at), false);
    assert.equal(sessionActivityDue(ago(59.999), at), false);
    assert.equal(sessionActivityDue(ago(60), at), false, 'a minute to the millisecond: not yet');
    assert.equal(sessionActivityDue(ago(60.001), at), true);
    assert.equal(sessionActivityDue(ago(3600), at), true);
  });

  it('is not due when the time written is ahead of this clock (another replica’s)', () => {
    assert.equal(sessionActivityDue(new Date(at.getTime() + 5_000), at), false);
  });
});

/** The seeded world, with every write of a session's activity counted. */
const counted = async () => {
  const s = await seed();
  const writes: string[] = [];
  const sessions = s.deps.sessions;
  const deps: Deps = {
    ...s.deps,
    sessions: {
      ...sessions,
      recordActivity: (id, at, everySeconds) => {
        writes.push(id);
        return sessions.recordActivity(id, at, everySeconds);
      },
    },
  };
  const lastActive = () => s.world.state.sessions.get(s.session.sessionId)!.lastActiveAt;
  const use = () => right(authenticateSession(deps)(s.signedIn.sessionToken));
  return { ...s, deps, writes, lastActive, use };
};

describe('auth use cases: a session’s last activity, written at most once a minute (ADR 3110)', () => {
  it('a new session was last active when it began', async () => {
    const s = await counted();
    const [listed] = (await right(listSessions(s.deps)(s.session, PAGE))).items;
    assert.deepEqual(listed!.lastActiveAt, listed!.createdAt);
    assert.deepEqual(s.writes, [], 'signing in wrote it with the session');
  });

  it('a use within the minute writes nothing; the first use after it writes its time', async () => {
    const s = await counted();
    const began = s.world.now();
    s.world.advance(30);
    await s.use();
    s.world.advance(30);
    await s.use();
    assert.deepEqual(s.writes, []);
    assert.deepEqual(s.lastActive(), began);

    s.world.advance(1);
    await s.use();
    assert.deepEqual(s.writes, [s.session.sessionId]);
    assert.deepEqual(s.lastActive(), s.world.now());
    const [listed] = (await right(listSessions(s.deps)(s.session, PAGE))).items;
    assert.deepEqual(listed!.lastActiveAt, s.world.now(), 'the list shows it');
    await s.use();
    assert.equal(s.writes.length, 1, 'and the minute starts again');
  });

  it('a session from before the change (never written) is written at its first use', async () => {
    const s = await counted();
    const id = s.session.sessionId;
    s.world.state.sessions.set(id, { ...s.world.state.sessions.get(id)!, lastActiveAt: null });
    assert.equal((await right(listSessions(s.deps)(s.session, PAGE))).items[0]!.lastActiveAt, null);
    await s.use();
    assert.deepEqual(s.lastActive(), s.world.now());
  });

  it('a use refused writes nothing', async () => {
    const s = await counted();
    s.world.advance(120);
    await right(endSession(s.deps)(s.session, s.session.sessionId));
    assert.equal(E.isLeft(await authenticateSession(s.deps)(s.signedIn.sessionToken)()), true);
    assert.equal(E.isLeft(await authenticateSession(s.deps)('ses_unknown')()), true);
    assert.deepEqual(s.writes, []);
  });

  it('a use through the session’s access token counts the same, with the same throttle', async () => {
    const s = await counted();
    const { kid } = await valueOf(ensureSigningKey(s.deps));
    const introspect = () => valueOf(introspectToken(s.deps)(sessionTokenId(s.session.sessionId, kid)));
    s.world.advance(59);
    assert.equal((await introspect()).active, true);
    assert.deepEqual(s.writes, []);
    s.world.advance(2);
    assert.equal((await introspect()).active, true);
    assert.deepEqual(s.lastActive(), s.world.now());
    await introspect();
    assert.equal(s.writes.length, 1);

    s.world.advance(120);
    await right(endSession(s.deps)(s.session, s.session.sessionId));
    assert.deepEqual(await introspect(), { active: false });
    assert.equal(s.writes.length, 1, 'an ended session’s token is not a use');
  });
});
