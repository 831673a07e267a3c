import assert from 'node:assert/strict';
import { MAX_SITES_PER_ACCOUNT } from '@esign/contracts';
import {
  createAccountSite,
  currentAccount,
  renameAccount,
  updateAccountSite,
} from '../../src/application/account-admin.js';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { createAccount } from '../../src/application/create-account.js';
import { signIn } from '../../src/application/sign-in.js';
import { createSite } from '../../src/application/sites.js';
import { createUser } from '../../src/application/users.js';
import { fakeWorld } from '../support/fakes.js';
import { left, right } from '../support/port-task.js';

const PASSWORD = 'correct horse battery staple';

/** Acme with its Production Site, its admin and a member signed in. */
const seed = async () => {
  const world = fakeWorld();
  const { deps } = world;
  const account = await right(createAccount(deps)({ name: 'Acme', apiAccess: true }));
  await right(createSite(deps)({ accountId: account.id, name: 'Production' }));
  for (const email of ['admin@acme.test', 'member@acme.test'])
    await right(createUser(deps)({ accountId: account.id, email, password: PASSWORD }));
  const sessionOf = async (email: string) =>
    right(authenticateSession(deps)((await right(signIn(deps)({ email, password: PASSWORD }))).sessionToken));
  return {
    world,
    deps,
    account,
    admin: await sessionOf('admin@acme.test'),
    member: await sessionOf('member@acme.test'),
  };
};

describe('auth use cases: an account admin creates Sites (ADR 3050)', () => {
  it('makes a Site of the account with the admin as its first member, so their tokens reach it', async () => {
    const s = await seed();
    const site = await right(createAccountSite(s.deps)(s.admin, { name: '  Development  ' }));
    assert.equal(site.name, 'Development', 'trimmed');
    assert.equal(site.accountId, s.account.id);
    assert.deepEqual(
      site.members.map((m) => m.email),
      ['admin@acme.test'],
    );
    const reached = await right(s.deps.sites.sitesOf(s.admin.userId));
    assert.deepEqual(
      reached.map((r) => r.name),
      ['Development'],
      'the admin is on the new Site (the operator never added them to Production)',
    );
  });

  it('refuses a name the account has, a member who is no admin, and more than the most Sites', async () => {
    const s = await seed();
    assert.deepEqual(await left(createAccountSite(s.deps)(s.admin, { name: 'Production' })), {
      _tag: 'SiteNameTaken',
      name: 'Production',
    });
    assert.deepEqual(await left(createAccountSite(s.deps)(s.member, { name: 'Mine' })), {
      _tag: 'AccountAdminRequired',
    });
    for (let i = 2; i <= MAX_SITES_PER_ACCOUNT; i++)
      await right(createAccountSite(s.deps)(s.admin, { name: `Team ${i}` }));
    assert.deepEqual(await left(createAccountSite(s.deps)(s.admin, { name: 'One too many' })), {
      _tag: 'TooManySites',
      max: MAX_SITES_PER_ACCOUNT,
    });
    assert.equal(
      [...s.world.state.sites.values()].filter((site) => site.accountId === s.account.id).length,
      MAX_SITES_PER_ACCOUNT,
    );
  });
});

describe('auth use cases: an account admin renames Sites (ADR 3070)', () => {
  it('renames, trimmed, and keeps the default language unless it is named too', async () => {
    const s = await seed();
    const dev = await right(createAccountSite(s.deps)(s.admin, { name: 'Development' }));
    await right(updateAccountSite(s.deps)(s.admin, { siteId: dev.id, defaultLocale: 'fr' }));
    const renamed = await right(updateAccountSite(s.deps)(s.admin, { siteId: dev.id, name: '  Staging ' }));
    assert.deepEqual([renamed.name, renamed.defaultLocale], ['Staging', 'fr']);
    assert.deepEqual(
      renamed.members.map((m) => m.email),
      ['admin@acme.test'],
    );
    const same = await right(updateAccountSite(s.deps)(s.admin, { siteId: dev.id, name: 'Staging' }));
    assert.equal(same.name, 'Staging', 'its own name again is no conflict');
  });

  it('refuses another Site’s name, a member who is no admin, and another account’s Site', async () => {
    const s = await seed();
    const dev = await right(createAccountSite(s.deps)(s.admin, { name: 'Development' }));
    assert.deepEqual(await left(updateAccountSite(s.deps)(s.admin, { siteId: dev.id, name: 'Production' })), {
      _tag: 'SiteNameTaken',
      name: 'Production',
    });
    assert.deepEqual(await left(updateAccountSite(s.deps)(s.member, { siteId: dev.id, name: 'Mine' })), {
      _tag: 'AccountAdminRequired',
    });
    const globex = await right(createAccount(s.deps)({ name: 'Globex', apiAccess: true }));
    const theirs = await right(createSite(s.deps)({ accountId: globex.id, name: 'Globex main' }));
    assert.deepEqual(await left(updateAccountSite(s.deps)(s.admin, { siteId: theirs.id, name: 'Ours' })), {
      _tag: 'NotFound',
      entity: 'site',
      id: String(theirs.id),
    });
    assert.equal(s.world.state.sites.get(dev.id)?.name, 'Development');
    assert.equal(s.world.state.sites.get(theirs.id)?.name, 'Globex main');
  });
});

describe('auth use cases: the account and its name (ADR 3080)', () => {
  it('any user sees their account; an admin renames it, trimmed; a member may not', async () => {
    const s = await seed();
    const seen = await right(currentAccount(s.deps)(s.member));
    assert.deepEqual(
      [seen.id, seen.name, seen.apiAccess, seen.admins],
      [s.account.id, 'Acme', true, ['admin@acme.test']],
      'whom to ask: the enabled admins',
    );
    const renamed = await right(renameAccount(s.deps)(s.admin, '  Acme Holdings '));
    assert.equal(renamed.name, 'Acme Holdings');
    assert.equal((await right(currentAccount(s.deps)(s.member))).name, 'Acme Holdings');
    assert.deepEqual(await left(renameAccount(s.deps)(s.member, 'Mine')), { _tag: 'AccountAdminRequired' });
    assert.equal(s.world.state.accounts.get(s.account.id)?.name, 'Acme Holdings');
  });
});
