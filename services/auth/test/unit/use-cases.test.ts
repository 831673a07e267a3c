import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { createTokenForApp } from '../../src/application/admin-tokens.js';
import { authenticateSession, signOut } from '../../src/application/authenticate-session.js';
import { createAccessToken } from '../../src/application/create-access-token.js';
import { setApiAccess } from '../../src/application/create-account.js';
import { createApp } from '../../src/application/create-app.js';
import { signIn } from '../../src/application/sign-in.js';
import { revokeOwnToken } from '../../src/application/tokens.js';
import { createUser, setPassword, setUserDisabled } from '../../src/application/users.js';
import { left, right } from '../support/port-task.js';
import { PASSWORD, seed, tokenFor } from '../support/seeded-world.js';

describe('auth use cases: signing in', () => {
  it('gives a session credential that authenticates until it expires or is ended', async () => {
    const s = await seed();
    assert.match(s.signedIn.sessionToken, /^ses_/);
    assert.equal(s.session.email, 'dev@acme.test');
    s.world.advance(3599);
    assert.ok(E.isRight(await authenticateSession(s.deps)(s.signedIn.sessionToken)()));
    s.world.advance(1);
    assert.deepEqual(await left(authenticateSession(s.deps)(s.signedIn.sessionToken)), {
      _tag: 'SessionInvalid',
    });
  });

  it("ends a session on sign-out and all of a user's sessions on a password change", async () => {
    const s = await seed();
    const other = await right(signIn(s.deps)({ email: 'dev@acme.test', password: PASSWORD }));
    await right(signOut(s.deps)(s.session));
    assert.deepEqual(await left(authenticateSession(s.deps)(s.signedIn.sessionToken)), {
      _tag: 'SessionInvalid',
    });
    assert.ok(E.isRight(await authenticateSession(s.deps)(other.sessionToken)()));
    await right(setPassword(s.deps)({ userId: s.user.id, password: 'another long password' }));
    assert.deepEqual(await left(authenticateSession(s.deps)(other.sessionToken)), { _tag: 'SessionInvalid' });
  });

  it('answers an unknown address like a wrong password, after spending the same work', async () => {
    const s = await seed();
    const before = { ...s.world.state.calls };
    assert.deepEqual(await left(signIn(s.deps)({ email: 'nobody@acme.test', password: PASSWORD })), {
      _tag: 'InvalidCredentials',
    });
    assert.deepEqual(await left(signIn(s.deps)({ email: 'dev@acme.test', password: 'wrong password!' })), {
      _tag: 'InvalidCredentials',
    });
    assert.equal(s.world.state.calls.verifyNobody, before.verifyNobody + 1);
    assert.equal(s.world.state.calls.verify, before.verify + 1);
  });

  it('refuses session credentials that are missing, malformed or unknown', async () => {
    const s = await seed();
    assert.deepEqual(await left(authenticateSession(s.deps)(undefined)), { _tag: 'SessionRequired' });
    assert.deepEqual(await left(authenticateSession(s.deps)('eyJhbGciOi.not.a.session')), {
      _tag: 'SessionInvalid',
    });
    assert.deepEqual(await left(authenticateSession(s.deps)('ses_unknown')), { _tag: 'SessionInvalid' });
  });

  it('only lets users with API access in, and checks it on every call', async () => {
    const s = await seed();
    await right(setApiAccess(s.deps)({ accountId: s.account.id, enabled: false }));
    assert.deepEqual(await left(authenticateSession(s.deps)(s.signedIn.sessionToken)), {
      _tag: 'ApiAccessRequired',
    });
    assert.deepEqual(await left(signIn(s.deps)({ email: 'dev@acme.test', password: PASSWORD })), {
      _tag: 'ApiAccessRequired',
    });
    await right(setApiAccess(s.deps)({ accountId: s.account.id, enabled: true }));
    await right(setUserDisabled(s.deps)({ userId: s.user.id, disabled: true }));
    assert.deepEqual(await left(signIn(s.deps)({ email: 'dev@acme.test', password: PASSWORD })), {
      _tag: 'UserDisabled',
    });
  });

  it('re-hashes a password made with old parameters at sign-in', async () => {
    const s = await seed();
    s.world.state.users.set(s.user.id, {
      ...s.world.state.users.get(s.user.id)!,
      passwordHash: `old$${PASSWORD}`,
    });
    await right(signIn(s.deps)({ email: 'dev@acme.test', password: PASSWORD }));
    assert.equal(s.world.state.users.get(s.user.id)!.passwordHash, `fake$${PASSWORD}`);
  });
});

describe('auth use cases: access tokens', () => {
  it('creates a token for the right password, records it, and shows it once', async () => {
    const s = await seed();
    const issued = await tokenFor(s);
    assert.equal(issued.record.origin, 'self_service');
    assert.equal(issued.record.userId, s.user.id);
    assert.equal(issued.record.appId, s.app.id);
    assert.equal(issued.record.expiresAt.getTime() - issued.record.createdAt.getTime(), 90 * 86_400_000);
    assert.ok(s.world.state.tokens.has(issued.record.id));
    assert.ok(issued.accessToken.includes(issued.record.id));
  });

  it('creates nothing on a wrong password', async () => {
    const s = await seed();
    assert.deepEqual(
      await left(
        createAccessToken(s.deps)({ session: s.session, appId: s.app.id, password: 'not the password' }),
      ),
      { _tag: 'WrongPassword' },
    );
    assert.equal(s.world.state.tokens.size, 0);
  });

  it('throttles repeated wrong passwords, even when the right one follows, then lets it through', async () => {
    const s = await seed();
    const attempt = (password: string) =>
      createAccessToken(s.deps)({ session: s.session, appId: s.app.id, password })();
    for (let i = 0; i < 5; i++)
      assert.deepEqual(await attempt('wrong password'), E.left({ _tag: 'WrongPassword' }));
    assert.deepEqual(await attempt(PASSWORD), E.left({ _tag: 'Throttled', retryAfterSeconds: 30 }));
    assert.equal(s.world.state.tokens.size, 0);
    s.world.advance(30);
    assert.ok(E.isRight(await attempt(PASSWORD)));
    // A success clears the count.
    assert.equal(s.world.state.attempts.size, 0);
  });

  it('shares one count between sign-in and re-entry for the same address', async () => {
    const s = await seed();
    for (let i = 0; i < 5; i++)
      await signIn(s.deps)({ email: 'DEV@acme.test', password: 'wrong password' })();
    assert.deepEqual(
      await left(createAccessToken(s.deps)({ session: s.session, appId: s.app.id, password: PASSWORD })),
      {
        _tag: 'Throttled',
        retryAfterSeconds: 30,
      },
    );
  });

  it("answers someone else's app as missing, without counting a password attempt", async () => {
    const s = await seed();
    const other = await right(
      createUser(s.deps)({ accountId: s.account.id, email: 'other@acme.test', password: PASSWORD }),
    );
    const otherApp = await right(createApp(s.deps)({ userId: other.id, name: 'Theirs' }));
    assert.deepEqual(
      await left(createAccessToken(s.deps)({ session: s.session, appId: otherApp.id, password: 'x' })),
      {
        _tag: 'NotFound',
        entity: 'app',
        id: otherApp.id,
      },
    );
    assert.equal(s.world.state.attempts.size, 0);
  });

  it('lets the person choose a lifetime and a name', async () => {
    const s = await seed();
    const issued = await right(
      createAccessToken(s.deps)({
        session: s.session,
        appId: s.app.id,
        password: PASSWORD,
        name: ' CI ',
        expiresInDays: 7,
      }),
    );
    assert.equal(issued.record.name, 'CI');
    assert.equal(issued.record.expiresAt.getTime() - issued.record.createdAt.getTime(), 7 * 86_400_000);
  });

  it("revokes only the user's own tokens", async () => {
    const s = await seed();
    const issued = await tokenFor(s);
    const other = await right(
      createUser(s.deps)({ accountId: s.account.id, email: 'other@acme.test', password: PASSWORD }),
    );
    assert.deepEqual(await left(revokeOwnToken(s.deps)(other.id, issued.record.id)), {
      _tag: 'NotFound',
      entity: 'token',
      id: issued.record.id,
    });
    const revoked = await right(revokeOwnToken(s.deps)(s.user.id, issued.record.id));
    assert.ok(revoked.revokedAt !== null);
    // Twice is fine and keeps the first time.
    s.world.advance(10);
    assert.deepEqual(
      (await right(revokeOwnToken(s.deps)(s.user.id, issued.record.id))).revokedAt,
      revoked.revokedAt,
    );
  });

  it('lets the operator make a token without a password, but not for a disabled owner', async () => {
    const s = await seed();
    const issued = await right(createTokenForApp(s.deps)({ appId: s.app.id, expiresInDays: 1 }));
    assert.equal(issued.record.origin, 'admin');
    await right(setUserDisabled(s.deps)({ userId: s.user.id, disabled: true }));
    assert.deepEqual(await left(createTokenForApp(s.deps)({ appId: s.app.id })), { _tag: 'UserDisabled' });
  });
});
