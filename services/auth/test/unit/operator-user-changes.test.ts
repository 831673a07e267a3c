import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { ACCESS_CHANGED, API_ACCESS_CHANGED, APP_CHANGED, TOKEN_REVOKED } from '@esign/contracts';
import { createTokenForApp } from '../../src/application/admin-tokens.js';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { createAccount, setApiAccess } from '../../src/application/create-account.js';
import { createApp } from '../../src/application/create-app.js';
import { deleteAnyApp, deleteApp, setAppDisabled } from '../../src/application/delete-app.js';
import { signIn } from '../../src/application/sign-in.js';
import { revokeOwnToken, revokeToken } from '../../src/application/tokens.js';
import { createUser, setAccountAdmin, setUserDisabled } from '../../src/application/users.js';
import { fakeWorld } from '../support/fakes.js';
import { left, right } from '../support/port-task.js';

const PASSWORD = 'correct horse battery staple';

/** Acme's admin (its first user) and a member, the member signed in. */
const seed = async () => {
  const world = fakeWorld();
  const { deps } = world;
  const account = await right(createAccount(deps)({ name: 'Acme', apiAccess: true }));
  const admin = await right(
    createUser(deps)({ accountId: account.id, email: 'admin@acme.test', password: PASSWORD }),
  );
  const member = await right(
    createUser(deps)({ accountId: account.id, email: 'member@acme.test', password: PASSWORD }),
  );
  const memberToken = (await right(signIn(deps)({ email: 'member@acme.test', password: PASSWORD })))
    .sessionToken;
  const told = () =>
    world.state.outbox.flatMap((e) =>
      e.type === ACCESS_CHANGED ? [[e.data.email, e.data.change, e.data.user, e.data.by_operator]] : [],
    );
  return { world, deps, account, admin, member, memberToken, told };
};

describe('auth use cases: an operator changes a user with the admin CLI, and the account hears of it (ADR 3120)', () => {
  it('disabling ends their sessions and tells them and the admins; again changes nothing; enabling tells them too', async () => {
    const s = await seed();
    const disabled = await right(setUserDisabled(s.deps)({ userId: s.member.id, disabled: true }));
    assert.deepEqual(disabled.disabledAt, s.world.now());
    assert.ok(E.isLeft(await authenticateSession(s.deps)(s.memberToken)()), 'their session ended');
    assert.deepEqual(s.told(), [
      ['admin@acme.test', 'disabled', 'member@acme.test', true],
      ['member@acme.test', 'disabled', 'member@acme.test', true],
    ]);
    const [event] = s.world.state.outbox.filter((e) => e.type === ACCESS_CHANGED);
    assert.ok(event?.type === ACCESS_CHANGED);
    assert.deepEqual(
      [event.aggregate_id, event.occurred_at, event.data.account_name, event.data.by],
      [s.member.id, s.world.now().toISOString(), 'Acme', 'operator'],
    );

    s.world.state.outbox.length = 0;
    s.world.advance(60);
    const again = await right(setUserDisabled(s.deps)({ userId: s.member.id, disabled: true }));
    assert.deepEqual(again.disabledAt, disabled.disabledAt, 'the first disabled_at is kept');
    assert.deepEqual(s.told(), [], 'again: nobody');

    assert.equal(
      (await right(setUserDisabled(s.deps)({ userId: s.member.id, disabled: false }))).disabledAt,
      null,
    );
    assert.deepEqual(s.told(), [
      ['admin@acme.test', 'enabled', 'member@acme.test', true],
      ['member@acme.test', 'enabled', 'member@acme.test', true],
    ]);
  });

  it('may disable the only admin; set-admin then gives the account a new one, and keeps it', async () => {
    const s = await seed();
    await right(setUserDisabled(s.deps)({ userId: s.admin.id, disabled: true }));
    assert.deepEqual(
      s.told(),
      [['admin@acme.test', 'disabled', 'admin@acme.test', true]],
      'no admin is left to tell',
    );

    s.world.state.outbox.length = 0;
    assert.equal(
      (await right(setAccountAdmin(s.deps)({ userId: s.member.id, admin: true }))).accountAdmin,
      true,
    );
    assert.deepEqual(s.told(), [['member@acme.test', 'made_admin', 'member@acme.test', true]]);

    s.world.state.outbox.length = 0;
    assert.deepEqual(await left(setAccountAdmin(s.deps)({ userId: s.member.id, admin: false })), {
      _tag: 'LastAdmin',
    });
    assert.deepEqual(s.told(), [], 'a refused change tells nobody');
    assert.deepEqual(await left(setUserDisabled(s.deps)({ userId: 'nobody', disabled: true })), {
      _tag: 'NotFound',
      entity: 'user',
      id: 'nobody',
    });
  });

  it('set-api-access tells every enabled user of the account when it changes, and nobody when it does not', async () => {
    const s = await seed();
    await right(setUserDisabled(s.deps)({ userId: s.member.id, disabled: true }));
    s.world.state.outbox.length = 0;
    const apiTold = () =>
      s.world.state.outbox.flatMap((e) =>
        e.type === API_ACCESS_CHANGED
          ? [[e.data.email, e.data.account_name, e.data.enabled, e.aggregate_id]]
          : [],
      );
    assert.equal(
      (await right(setApiAccess(s.deps)({ accountId: s.account.id, enabled: false }))).apiAccess,
      false,
    );
    assert.deepEqual(
      apiTold(),
      [['admin@acme.test', 'Acme', false, s.account.id]],
      'a disabled user is not told',
    );
    await right(setApiAccess(s.deps)({ accountId: s.account.id, enabled: false }));
    assert.equal(apiTold().length, 1, 'again: nobody');
    await right(setApiAccess(s.deps)({ accountId: s.account.id, enabled: true }));
    assert.deepEqual(apiTold().at(-1), ['admin@acme.test', 'Acme', true, s.account.id]);
    assert.equal(s.world.state.outbox.length, 2, 'nothing else');
  });

  it("disable-app, enable-app and delete-app tell the app's owner when they change it; the owner's own delete tells nobody", async () => {
    const s = await seed();
    const app = await right(createApp(s.deps)({ userId: s.member.id, name: 'Billing sync' }));
    const appTold = () =>
      s.world.state.outbox.flatMap((e) =>
        e.type === APP_CHANGED ? [[e.data.email, e.data.app_name, e.data.change, e.aggregate_id]] : [],
      );
    const suspended = await right(setAppDisabled(s.deps)({ appId: app.id, disabled: true }));
    s.world.advance(60);
    const again = await right(setAppDisabled(s.deps)({ appId: app.id, disabled: true }));
    assert.deepEqual(again.disabledAt, suspended.disabledAt, 'the first time is kept');
    await right(setAppDisabled(s.deps)({ appId: app.id, disabled: false }));
    await right(deleteAnyApp(s.deps)(app.id));
    assert.deepEqual(appTold(), [
      ['member@acme.test', 'Billing sync', 'disabled', app.id],
      ['member@acme.test', 'Billing sync', 'enabled', app.id],
      ['member@acme.test', 'Billing sync', 'deleted', app.id],
    ]);

    s.world.state.outbox.length = 0;
    const own = await right(createApp(s.deps)({ userId: s.member.id, name: 'Own' }));
    await right(deleteApp(s.deps)(s.member.id, own.id));
    const ofDisabled = await right(createApp(s.deps)({ userId: s.member.id, name: 'Left behind' }));
    await right(setUserDisabled(s.deps)({ userId: s.member.id, disabled: true }));
    s.world.state.outbox.length = 0;
    await right(setAppDisabled(s.deps)({ appId: ofDisabled.id, disabled: true }));
    assert.deepEqual(appTold(), [], 'neither the owner deleting their own app, nor a disabled owner');
  });

  it("revoke-token tells the token's user once; their own revocation, a disabled user or a deleted app, nobody", async () => {
    const s = await seed();
    const app = await right(createApp(s.deps)({ userId: s.member.id, name: 'Billing sync' }));
    const issue = (name?: string) =>
      right(createTokenForApp(s.deps)({ appId: app.id, ...(name !== undefined && { name }) }));
    const tokenTold = () =>
      s.world.state.outbox.flatMap((e) =>
        e.type === TOKEN_REVOKED
          ? [[e.data.email, e.data.app_name, e.data.token_name, e.data.origin, e.aggregate_id]]
          : [],
      );
    const leaked = (await issue('CI runner')).record;
    const revoked = await right(revokeToken(s.deps)(leaked.id));
    s.world.advance(60);
    const again = await right(revokeToken(s.deps)(leaked.id));
    assert.deepEqual(again.revokedAt, revoked.revokedAt, 'the first time is kept');
    assert.deepEqual(tokenTold(), [['member@acme.test', 'Billing sync', 'CI runner', 'admin', leaked.id]]);

    s.world.state.outbox.length = 0;
    const own = (await issue()).record;
    await right(revokeOwnToken(s.deps)(s.member.id, own.id));
    const ofDisabled = (await issue()).record;
    const ofDeleted = (await issue()).record;
    await right(setUserDisabled(s.deps)({ userId: s.member.id, disabled: true }));
    await right(revokeToken(s.deps)(ofDisabled.id));
    await right(setUserDisabled(s.deps)({ userId: s.member.id, disabled: false }));
    await right(deleteApp(s.deps)(s.member.id, app.id));
    await right(revokeToken(s.deps)(ofDeleted.id));
    assert.deepEqual(tokenTold(), [], 'neither their own, nor a disabled user, nor a deleted app');
    assert.deepEqual(await left(revokeToken(s.deps)('00000000-0000-4000-8000-000000000000')), {
      _tag: 'NotFound',
      entity: 'token',
      id: '00000000-0000-4000-8000-000000000000',
    });
  });
});
