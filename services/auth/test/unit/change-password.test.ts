import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { setClientSecret } from '../../src/application/client-secret.js';
import { createAccessToken } from '../../src/application/create-access-token.js';
import { createAccount } from '../../src/application/create-account.js';
import { createApp } from '../../src/application/create-app.js';
import { introspectToken } from '../../src/application/introspect-token.js';
import { signIn } from '../../src/application/sign-in.js';
import { addMember, createSite } from '../../src/application/sites.js';
import { changeOwnPassword, createUser } from '../../src/application/users.js';
import { fakeWorld } from '../support/fakes.js';
import { right, valueOf } from '../support/port-task.js';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a new and longer passphrase';

/** A user signed in twice, with an app, its client secret and an access token. */
const seed = async () => {
  const world = fakeWorld();
  const { deps } = world;
  const account = await right(createAccount(deps)({ name: 'Acme', apiAccess: true }));
  const site = await right(createSite(deps)({ accountId: account.id, name: 'Production' }));
  const user = await right(
    createUser(deps)({ accountId: account.id, email: 'dev@acme.test', password: PASSWORD }),
  );
  await right(addMember(deps)({ siteId: site.id, userId: user.id }));
  const signedIn = await right(signIn(deps)({ email: 'dev@acme.test', password: PASSWORD }));
  const other = await right(signIn(deps)({ email: 'dev@acme.test', password: PASSWORD }));
  const session = await right(authenticateSession(deps)(signedIn.sessionToken));
  const app = await right(createApp(deps)({ userId: user.id, name: 'Integration' }));
  await right(setClientSecret(deps)({ session, appId: app.id, password: PASSWORD }));
  const token = await right(createAccessToken(deps)({ session, appId: app.id, password: PASSWORD }));
  const change = (currentPassword: string, newPassword: string) =>
    changeOwnPassword(deps)({ session, currentPassword, newPassword })();
  const signsIn = async (password: string) =>
    E.isRight(await signIn(deps)({ email: 'dev@acme.test', password })());
  return { world, deps, signedIn, other, token, change, signsIn };
};

describe('auth use cases: a user changes their own password', () => {
  it('sets the new password and ends every session, token and client secret made with the old one', async () => {
    const s = await seed();
    assert.deepEqual(await s.change(PASSWORD, NEW_PASSWORD), {
      _tag: 'Right',
      right: { sessionsEnded: 2, tokensRevoked: 1, clientSecretsRemoved: 1 },
    });
    assert.equal(await s.signsIn(PASSWORD), false);
    assert.equal(await s.signsIn(NEW_PASSWORD), true);
    for (const ended of [s.signedIn, s.other])
      assert.ok(E.isLeft(await authenticateSession(s.deps)(ended.sessionToken)()), 'every session ends');
    assert.deepEqual(await valueOf(introspectToken(s.deps)(s.token.record.id)), { active: false });
    assert.deepEqual(
      s.world.state.outbox.map((e) => [e.type, e.data.email, 'by' in e.data ? e.data.by : undefined]),
      [['account.password_changed', 'dev@acme.test', 'user']],
      'the user is told by e-mail',
    );
  });

  it('refuses a wrong current password, changing nothing', async () => {
    const s = await seed();
    assert.deepEqual(
      await s.change('not my password', NEW_PASSWORD),
      E.left({ _tag: 'WrongCurrentPassword' }),
    );
    assert.equal(await s.signsIn(PASSWORD), true);
    assert.ok(E.isRight(await authenticateSession(s.deps)(s.other.sessionToken)()));
    assert.equal(s.world.state.outbox.length, 0, 'nobody is told of a change that did not happen');
  });

  it('refuses a new password that breaks a rule before counting an attempt, naming new_password', async () => {
    const s = await seed();
    for (const [candidate, reason] of [
      ['short', 'must be at least 12 characters'],
      ['DEV@acme.test', 'must not be the e-mail address'],
      [PASSWORD, 'must differ from the current password'],
      // The same characters typed otherwise are the same password (NFKC).
      [PASSWORD.replace('c', '\uff43'), 'must differ from the current password'],
    ] as const)
      assert.deepEqual(
        await s.change(PASSWORD, candidate),
        E.left({ _tag: 'WeakPassword', reason, field: 'new_password' }),
        candidate,
      );
    // A wrong current password with a weak new one is refused for the new one: no guess is counted.
    for (let i = 0; i < 10; i++)
      assert.equal(
        ((await s.change('wrong', 'short')) as E.Left<{ _tag: string }>).left._tag,
        'WeakPassword',
      );
    assert.equal(await s.signsIn(PASSWORD), true);
  });

  it('counts wrong current passwords against the sign-in limit', async () => {
    const s = await seed();
    const tags: string[] = [];
    for (let i = 0; i < 7; i++) {
      const result = await s.change('not my password', NEW_PASSWORD);
      tags.push(E.isLeft(result) ? result.left._tag : 'Right');
    }
    assert.equal(tags.at(-1), 'Throttled', tags.join(', '));
    assert.equal(
      ((await s.change(PASSWORD, NEW_PASSWORD)) as E.Left<{ _tag: string }>).left._tag,
      'Throttled',
      'even the right password waits',
    );
  });
});
