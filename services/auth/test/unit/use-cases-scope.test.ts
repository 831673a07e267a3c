// Auth's use cases over in-memory fakes, continued from use-cases.test.ts: what a token
// reaches (decided at use), client credentials, signing keys, accounts, users and Sites.
import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { clientCredentialsGrant } from '../../src/application/client-credentials.js';
import { issueClientSecret, setClientSecret } from '../../src/application/client-secret.js';
import { createAccessToken } from '../../src/application/create-access-token.js';
import { createAccount, setApiAccess } from '../../src/application/create-account.js';
import { createApp } from '../../src/application/create-app.js';
import { deleteApp } from '../../src/application/delete-app.js';
import { introspectToken } from '../../src/application/introspect-token.js';
import { signIn } from '../../src/application/sign-in.js';
import { publishKeys, rotateSigningKey } from '../../src/application/signing-keys.js';
import { addMember, removeMember } from '../../src/application/sites.js';
import { revokeOwnToken } from '../../src/application/tokens.js';
import { createUser, setUserDisabled } from '../../src/application/users.js';
import { left, right, valueOf } from '../support/port-task.js';
import { PASSWORD, seed, tokenFor } from '../support/seeded-world.js';

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
