import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { createTokenForApp } from '../../src/application/admin-tokens.js';
import { authenticateSession, signOut } from '../../src/application/authenticate-session.js';
import { clientCredentialsGrant } from '../../src/application/client-credentials.js';
import { issueClientSecret, setClientSecret } from '../../src/application/client-secret.js';
import { createAccessToken } from '../../src/application/create-access-token.js';
import { createAccount, setApiAccess } from '../../src/application/create-account.js';
import { createApp } from '../../src/application/create-app.js';
import { deleteApp } from '../../src/application/delete-app.js';
import { introspectToken } from '../../src/application/introspect-token.js';
import { signIn } from '../../src/application/sign-in.js';
import { publishKeys, rotateSigningKey } from '../../src/application/signing-keys.js';
import { addMember, createSite, removeMember } from '../../src/application/sites.js';
import { revokeOwnToken } from '../../src/application/tokens.js';
import { createUser, setPassword, setUserDisabled } from '../../src/application/users.js';
import type { SessionUser } from '../../src/domain/model.js';
import { fakeWorld, type FakeWorld } from '../support/fakes.js';
import { left, right, valueOf } from '../support/port-task.js';

const PASSWORD = 'correct horse battery staple';

/** An account with two sites and a user who is a member of both, signed in, with one app. */
const seed = async (world: FakeWorld = fakeWorld()) => {
  const { deps } = world;
  const account = await right(createAccount(deps)({ name: 'Acme', apiAccess: true }));
  const production = await right(createSite(deps)({ accountId: account.id, name: 'Production' }));
  const development = await right(createSite(deps)({ accountId: account.id, name: 'Development' }));
  const user = await right(
    createUser(deps)({ accountId: account.id, email: 'Dev@Acme.test', password: PASSWORD }),
  );
  await right(addMember(deps)({ siteId: production.id, userId: user.id }));
  await right(addMember(deps)({ siteId: development.id, userId: user.id }));
  const signedIn = await right(signIn(deps)({ email: 'dev@acme.test', password: PASSWORD }));
  const session = await right(authenticateSession(deps)(signedIn.sessionToken));
  const app = await right(createApp(deps)({ userId: user.id, name: 'Integration' }));
  return { world, deps, account, production, development, user, session, signedIn, app };
};

const tokenFor = (s: Awaited<ReturnType<typeof seed>>, session: SessionUser = s.session) =>
  right(createAccessToken(s.deps)({ session, appId: s.app.id, password: PASSWORD }));

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

describe('auth use cases: introspection (scope decided at use)', () => {
  it('answers the sites the user reaches now, and notes the use', async () => {
    const s = await seed();
    const { record } = await tokenFor(s);
    assert.deepEqual(await valueOf(introspectToken(s.deps)(record.id)), {
      active: true,
      sub: s.user.id,
      token_id: record.id,
      sites: [
        { id: s.production.id, name: 'Production' },
        { id: s.development.id, name: 'Development' },
      ],
    });
    assert.deepEqual(s.world.state.used, [{ tokenId: record.id, at: s.world.now() }]);
  });

  it('drops a site as soon as the membership is removed', async () => {
    const s = await seed();
    const { record } = await tokenFor(s);
    await right(removeMember(s.deps)({ siteId: s.production.id, userId: s.user.id }));
    assert.deepEqual(await valueOf(introspectToken(s.deps)(record.id)), {
      active: true,
      sub: s.user.id,
      token_id: record.id,
      sites: [{ id: s.development.id, name: 'Development' }],
    });
  });

  it("gives a dedicated single-site user's token that one site only", async () => {
    const s = await seed();
    const bot = await right(
      createUser(s.deps)({ accountId: s.account.id, email: 'prod-bot@acme.test', password: PASSWORD }),
    );
    await right(addMember(s.deps)({ siteId: s.production.id, userId: bot.id }));
    const botSession = await right(
      authenticateSession(s.deps)(
        (await right(signIn(s.deps)({ email: 'prod-bot@acme.test', password: PASSWORD }))).sessionToken,
      ),
    );
    const botApp = await right(createApp(s.deps)({ userId: bot.id, name: 'Prod' }));
    const issued = await right(
      createAccessToken(s.deps)({ session: botSession, appId: botApp.id, password: PASSWORD }),
    );
    const answer = await valueOf(introspectToken(s.deps)(issued.record.id));
    assert.ok(answer.active);
    assert.deepEqual(answer.sites, [{ id: s.production.id, name: 'Production' }]);
  });

  it('says inactive, and notes nothing, for revoked, expired, disabled, deleted and unknown', async () => {
    const s = await seed();
    const revoked = await tokenFor(s);
    await right(revokeOwnToken(s.deps)(s.user.id, revoked.record.id));
    assert.deepEqual(await valueOf(introspectToken(s.deps)(revoked.record.id)), { active: false });

    const short = await right(
      createAccessToken(s.deps)({
        session: s.session,
        appId: s.app.id,
        password: PASSWORD,
        expiresInDays: 1,
      }),
    );
    s.world.advance(86_400);
    assert.deepEqual(await valueOf(introspectToken(s.deps)(short.record.id)), { active: false });

    assert.deepEqual(await valueOf(introspectToken(s.deps)('no-such-token')), { active: false });
    assert.deepEqual(s.world.state.used, []);
  });

  it('stops every token of a disabled user, a deleted app, or an account without API access', async () => {
    const s = await seed();
    const { record } = await tokenFor(s);
    const active = async () => (await valueOf(introspectToken(s.deps)(record.id))).active;
    await right(setUserDisabled(s.deps)({ userId: s.user.id, disabled: true }));
    assert.equal(await active(), false);
    await right(setUserDisabled(s.deps)({ userId: s.user.id, disabled: false }));
    assert.equal(await active(), true);
    await right(setApiAccess(s.deps)({ accountId: s.account.id, enabled: false }));
    assert.equal(await active(), false);
    await right(setApiAccess(s.deps)({ accountId: s.account.id, enabled: true }));
    await right(deleteApp(s.deps)(s.user.id, s.app.id));
    assert.equal(await active(), false);
    assert.ok(s.world.state.tokens.get(record.id)!.revokedAt !== null);
  });
});

describe('auth use cases: client credentials', () => {
  it('issues a short-lived token of the app owner for the right secret', async () => {
    const s = await seed();
    const secret = await valueOf(issueClientSecret(s.deps)(s.app.id));
    const issued = await right(
      clientCredentialsGrant(s.deps)({ clientId: s.app.id, clientSecret: secret.clientSecret }),
    );
    assert.equal(issued.record.origin, 'client_credentials');
    assert.equal(issued.record.userId, s.user.id);
    assert.equal(issued.record.expiresAt.getTime() - issued.record.createdAt.getTime(), 3600_000);
  });

  it('answers every wrong credential alike', async () => {
    const s = await seed();
    const secret = await valueOf(issueClientSecret(s.deps)(s.app.id));
    const noSecretApp = await right(createApp(s.deps)({ userId: s.user.id, name: 'No secret' }));
    for (const attempt of [
      { clientId: s.app.id, clientSecret: 'wrong' },
      { clientId: 'unknown', clientSecret: secret.clientSecret },
      { clientId: noSecretApp.id, clientSecret: '' },
    ])
      assert.deepEqual(await left(clientCredentialsGrant(s.deps)(attempt)), { _tag: 'InvalidClient' });
  });

  it('refuses a client whose owner is disabled or has no API access', async () => {
    const s = await seed();
    const secret = await valueOf(issueClientSecret(s.deps)(s.app.id));
    await right(setUserDisabled(s.deps)({ userId: s.user.id, disabled: true }));
    assert.equal(
      (
        (await left(
          clientCredentialsGrant(s.deps)({ clientId: s.app.id, clientSecret: secret.clientSecret }),
        )) as { _tag: string }
      )._tag,
      'UnauthorizedClient',
    );
  });

  it('needs the password to make a client secret, and a new one replaces the old', async () => {
    const s = await seed();
    assert.deepEqual(
      await left(setClientSecret(s.deps)({ session: s.session, appId: s.app.id, password: 'nope' })),
      {
        _tag: 'WrongPassword',
      },
    );
    const first = await right(
      setClientSecret(s.deps)({ session: s.session, appId: s.app.id, password: PASSWORD }),
    );
    const second = await right(
      setClientSecret(s.deps)({ session: s.session, appId: s.app.id, password: PASSWORD }),
    );
    assert.ok(
      E.isLeft(
        await clientCredentialsGrant(s.deps)({ clientId: s.app.id, clientSecret: first.clientSecret })(),
      ),
    );
    assert.ok(
      E.isRight(
        await clientCredentialsGrant(s.deps)({ clientId: s.app.id, clientSecret: second.clientSecret })(),
      ),
    );
  });
});

describe('auth use cases: signing keys', () => {
  it('makes the first key on demand and publishes it', async () => {
    const s = await seed();
    const jwks = await valueOf(publishKeys(s.deps));
    assert.equal(jwks.keys.length, 1);
    assert.equal(s.world.state.keys.size, 1);
  });

  it('publishes a rotated key at once, signs with it after the delay, keeps the old one while its tokens live', async () => {
    const s = await seed();
    const before = await tokenFor(s);
    const rotation = await right(rotateSigningKey(s.deps)({ activateInSeconds: 120, revokePrevious: false }));
    assert.deepEqual(
      (await valueOf(publishKeys(s.deps))).keys.map((k) => k.kid),
      [rotation.key.kid, before.record.kid],
    );
    const during = await tokenFor(s);
    assert.equal(during.record.kid, before.record.kid, 'the old key signs until the new one activates');
    s.world.advance(120);
    const after = await tokenFor(s);
    assert.equal(after.record.kid, rotation.key.kid);
    assert.deepEqual(
      (await valueOf(publishKeys(s.deps))).keys.map((k) => k.kid).sort(),
      [rotation.key.kid, before.record.kid].sort(),
    );
    // Once every token the old key signed is revoked, it is withdrawn.
    await right(revokeOwnToken(s.deps)(s.user.id, before.record.id));
    await right(revokeOwnToken(s.deps)(s.user.id, during.record.id));
    assert.deepEqual(
      (await valueOf(publishKeys(s.deps))).keys.map((k) => k.kid),
      [rotation.key.kid],
    );
  });

  it("on --revoke-previous signs with the new key at once and stops the old key's tokens", async () => {
    const s = await seed();
    const before = await tokenFor(s);
    const rotation = await right(rotateSigningKey(s.deps)({ activateInSeconds: 0, revokePrevious: true }));
    assert.deepEqual(rotation.revoked, [before.record.kid]);
    assert.deepEqual(
      (await valueOf(publishKeys(s.deps))).keys.map((k) => k.kid),
      [rotation.key.kid],
    );
    assert.deepEqual(await valueOf(introspectToken(s.deps)(before.record.id)), { active: false });
    assert.equal((await tokenFor(s)).record.kid, rotation.key.kid);
  });
});

describe('auth use cases: accounts, users, sites', () => {
  it('refuses a weak password, a taken address, and a member from another account', async () => {
    const s = await seed();
    assert.equal(
      (
        (await left(
          createUser(s.deps)({ accountId: s.account.id, email: 'x@acme.test', password: 'short' }),
        )) as { _tag: string }
      )._tag,
      'WeakPassword',
    );
    assert.deepEqual(
      await left(createUser(s.deps)({ accountId: s.account.id, email: 'DEV@acme.test', password: PASSWORD })),
      { _tag: 'EmailTaken', email: 'dev@acme.test' },
    );
    const other = await right(createAccount(s.deps)({ name: 'Other', apiAccess: true }));
    const stranger = await right(
      createUser(s.deps)({ accountId: other.id, email: 'x@other.test', password: PASSWORD }),
    );
    assert.deepEqual(await left(addMember(s.deps)({ siteId: s.production.id, userId: stranger.id })), {
      _tag: 'DifferentAccounts',
      siteId: s.production.id,
      userId: stranger.id,
    });
  });

  it('adds and removes members idempotently', async () => {
    const s = await seed();
    assert.deepEqual(await right(addMember(s.deps)({ siteId: s.production.id, userId: s.user.id })), {
      added: false,
    });
    assert.deepEqual(await right(removeMember(s.deps)({ siteId: s.production.id, userId: s.user.id })), {
      removed: true,
    });
    assert.deepEqual(await right(removeMember(s.deps)({ siteId: s.production.id, userId: s.user.id })), {
      removed: false,
    });
  });
});
