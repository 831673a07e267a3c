import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { ACCESS_CHANGED } from '@esign/contracts';
import { updateAccountUser } from '../../src/application/account-admin.js';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { createAccount } from '../../src/application/create-account.js';
import { signIn } from '../../src/application/sign-in.js';
import { addMember, createSite } from '../../src/application/sites.js';
import { createUser } from '../../src/application/users.js';
import { fakeWorld } from '../support/fakes.js';
import { left, right } from '../support/port-task.js';

const PASSWORD = 'correct horse battery staple';

/** Acme's admin and a member on its Site, both signed in; Globex with a user of its own. */
const seed = async () => {
  const world = fakeWorld();
  const { deps } = world;
  const account = await right(createAccount(deps)({ name: 'Acme', apiAccess: true }));
  const site = await right(createSite(deps)({ accountId: account.id, name: 'Production' }));
  const admin = await right(
    createUser(deps)({ accountId: account.id, email: 'admin@acme.test', password: PASSWORD }),
  );
  const member = await right(
    createUser(deps)({ accountId: account.id, email: 'member@acme.test', password: PASSWORD }),
  );
  await right(addMember(deps)({ siteId: site.id, userId: member.id }));
  const globex = await right(createAccount(deps)({ name: 'Globex', apiAccess: true }));
  const outsider = await right(
    createUser(deps)({ accountId: globex.id, email: 'boss@globex.test', password: PASSWORD }),
  );
  const signedIn = async (email: string) =>
    (await right(signIn(deps)({ email, password: PASSWORD }))).sessionToken;
  const [adminToken, memberToken] = [await signedIn('admin@acme.test'), await signedIn('member@acme.test')];
  const adminSession = await right(authenticateSession(deps)(adminToken));
  const set = (userId: string, disabled: boolean, session = adminSession) =>
    updateAccountUser(deps)(session, { userId, disabled })();
  const promote = (userId: string, admin: boolean, session = adminSession) =>
    updateAccountUser(deps)(session, { userId, admin })();
  const sessionOf = (email: string) =>
    signedIn(email).then((token) => right(authenticateSession(deps)(token)));
  return { world, deps, site, admin, member, outsider, adminSession, memberToken, set, promote, sessionOf };
};

describe('auth use cases: an account admin disables and enables the account’s users', () => {
  it('disabling ends the user’s sessions at once; again changes nothing; enabling lets them sign in', async () => {
    const s = await seed();
    const disabled = await right(() => s.set(s.member.id, true));
    assert.deepEqual(disabled.disabledAt, s.world.now());
    assert.deepEqual(disabled.siteIds, [s.site.id]);
    assert.ok(E.isLeft(await authenticateSession(s.deps)(s.memberToken)()), 'their session ended');
    assert.ok(E.isLeft(await signIn(s.deps)({ email: 'member@acme.test', password: PASSWORD })()));

    s.world.advance(60);
    const again = await right(() => s.set(s.member.id, true));
    assert.deepEqual(again.disabledAt, disabled.disabledAt, 'the first disabled_at is kept');

    const enabled = await right(() => s.set(s.member.id, false));
    assert.equal(enabled.disabledAt, null);
    assert.ok(E.isRight(await signIn(s.deps)({ email: 'member@acme.test', password: PASSWORD })()));
  });

  it('an admin cannot disable themselves; enabling themselves changes nothing', async () => {
    const s = await seed();
    assert.deepEqual(await left(() => s.set(s.admin.id, true)), { _tag: 'CannotDisableYourself' });
    assert.equal((await right(() => s.set(s.admin.id, false))).disabledAt, null);
  });

  it('is for account admins only, and another account’s user or an unknown id is 404', async () => {
    const s = await seed();
    const memberSession = await right(authenticateSession(s.deps)(s.memberToken));
    assert.deepEqual(await left(() => s.set(s.admin.id, true, memberSession)), {
      _tag: 'AccountAdminRequired',
    });
    assert.deepEqual(await left(() => s.set(s.outsider.id, true)), {
      _tag: 'NotFound',
      entity: 'user',
      id: s.outsider.id,
    });
    assert.deepEqual(await left(() => s.set('not-a-user', true)), {
      _tag: 'NotFound',
      entity: 'user',
      id: 'not-a-user',
    });
    assert.equal(s.world.state.users.get(s.outsider.id)?.disabledAt, null);
  });
});

describe('auth use cases: an account has more than one admin, and always one', () => {
  it('an admin makes a user admin: from their next call they administer the account', async () => {
    const s = await seed();
    const promoted = await right(() => s.promote(s.member.id, true));
    assert.equal(promoted.accountAdmin, true);
    assert.deepEqual(promoted.siteIds, [s.site.id]);
    const memberSession = await right(authenticateSession(s.deps)(s.memberToken));
    assert.equal(memberSession.accountAdmin, true, 'their session, made before, is an admin’s now');
    assert.equal(
      (await right(() => s.promote(s.member.id, true))).accountAdmin,
      true,
      'again changes nothing',
    );
  });

  it('the only enabled admin cannot step down; with another admin they can, and then are refused', async () => {
    const s = await seed();
    assert.deepEqual(await left(() => s.promote(s.admin.id, false)), { _tag: 'LastAdmin' });
    assert.equal(s.world.state.users.get(s.admin.id)?.accountAdmin, true, 'nothing changed');

    await right(() => s.promote(s.member.id, true));
    await right(() => s.set(s.member.id, true));
    assert.deepEqual(
      await left(() => s.promote(s.admin.id, false)),
      { _tag: 'LastAdmin' },
      'a disabled admin does not count',
    );

    await right(() => s.set(s.member.id, false));
    assert.equal((await right(() => s.promote(s.admin.id, false))).accountAdmin, false);
    assert.deepEqual(
      await left(() => s.promote(s.member.id, false)),
      { _tag: 'AccountAdminRequired' },
      'the session made while they were admin no longer is one',
    );
  });

  it('an admin demoted or disabled by another is refused what they asked next', async () => {
    const s = await seed();
    await right(() => s.promote(s.member.id, true));
    const second = await s.sessionOf('member@acme.test');
    // Both sessions were admins' when read; the first change wins, the second is decided after it.
    await right(() => s.promote(s.admin.id, false, second));
    assert.deepEqual(await left(() => s.promote(s.member.id, false)), { _tag: 'AccountAdminRequired' });
    assert.equal(s.world.state.users.get(s.member.id)?.accountAdmin, true, 'the account kept an admin');
    assert.deepEqual(await left(() => s.set(s.member.id, true)), { _tag: 'AccountAdminRequired' });
  });

  it('one call may enable a user and make them admin; another account’s user is 404', async () => {
    const s = await seed();
    await right(() => s.set(s.member.id, true));
    const both = await right(() =>
      updateAccountUser(s.deps)(s.adminSession, { userId: s.member.id, disabled: false, admin: true })(),
    );
    assert.deepEqual([both.disabledAt, both.accountAdmin], [null, true]);
    assert.deepEqual(await left(() => s.promote(s.outsider.id, true)), {
      _tag: 'NotFound',
      entity: 'user',
      id: s.outsider.id,
    });
    assert.equal(s.world.state.users.get(s.outsider.id)?.accountAdmin, true, 'Globex’s own admin, untouched');
  });
});

describe('auth use cases: who is told of a change to a user (ADR 3060)', () => {
  const told = (s: Awaited<ReturnType<typeof seed>>) =>
    s.world.state.outbox
      .filter((e) => e.type === ACCESS_CHANGED)
      .map((e) => (e.type === ACCESS_CHANGED ? [e.data.email, e.data.change, e.data.user, e.data.by] : []));

  it('a new or removed admin is told to every enabled admin and to the user; nothing changed tells nobody', async () => {
    const s = await seed();
    await right(() => s.promote(s.member.id, true));
    assert.deepEqual(told(s), [
      ['admin@acme.test', 'made_admin', 'member@acme.test', 'admin@acme.test'],
      ['member@acme.test', 'made_admin', 'member@acme.test', 'admin@acme.test'],
    ]);
    const [event] = s.world.state.outbox.filter((e) => e.type === ACCESS_CHANGED);
    assert.deepEqual([event?.aggregate_id, event?.occurred_at], [s.member.id, s.world.now().toISOString()]);
    assert.ok(event?.type === ACCESS_CHANGED && event.data.account_name === 'Acme');

    s.world.state.outbox.length = 0;
    await right(() => s.promote(s.member.id, true));
    assert.deepEqual(told(s), [], 'again: nobody');
    await right(() => s.promote(s.member.id, false));
    assert.deepEqual(told(s), [
      ['admin@acme.test', 'removed_admin', 'member@acme.test', 'admin@acme.test'],
      ['member@acme.test', 'removed_admin', 'member@acme.test', 'admin@acme.test'],
    ]);
  });

  it('a user disabled or enabled is told themselves; a refused change tells nobody', async () => {
    const s = await seed();
    await right(() => s.set(s.member.id, true));
    await right(() => s.set(s.member.id, true));
    await right(() => s.set(s.member.id, false));
    assert.deepEqual(told(s), [
      ['member@acme.test', 'disabled', 'member@acme.test', 'admin@acme.test'],
      ['member@acme.test', 'enabled', 'member@acme.test', 'admin@acme.test'],
    ]);
    s.world.state.outbox.length = 0;
    await left(() => s.promote(s.admin.id, false));
    await left(() => s.set(s.admin.id, true));
    assert.deepEqual(told(s), []);
  });
});
