import assert from 'node:assert/strict';
import { UserInvited } from '@esign/contracts';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { createAccount } from '../../src/application/create-account.js';
import { acceptInvitation, createInvitation, listInvitations } from '../../src/application/invitations.js';
import { signIn } from '../../src/application/sign-in.js';
import { createSite } from '../../src/application/sites.js';
import { createUser } from '../../src/application/users.js';
import type { SessionUser } from '../../src/domain/model.js';
import { fakeWorld } from './fakes.js';
import { right } from './port-task.js';

export const PASSWORD = 'correct horse battery staple';
export const INVITEE_PASSWORD = 'the invitee’s own passphrase';
export const PAGE = { page: 1, perPage: 20 };

/** Acme with two Sites and its admin signed in; Globex, another account, with a user of its own. */
export const seed = async () => {
  const world = fakeWorld();
  const { deps } = world;
  const account = await right(createAccount(deps)({ name: 'Acme', apiAccess: true }));
  const production = await right(createSite(deps)({ accountId: account.id, name: 'Production' }));
  const development = await right(createSite(deps)({ accountId: account.id, name: 'Development' }));
  await right(createUser(deps)({ accountId: account.id, email: 'admin@acme.test', password: PASSWORD }));
  const member = await right(
    createUser(deps)({ accountId: account.id, email: 'member@acme.test', password: PASSWORD }),
  );
  const globex = await right(createAccount(deps)({ name: 'Globex', apiAccess: true }));
  const globexSite = await right(createSite(deps)({ accountId: globex.id, name: 'Globex HQ' }));
  await right(createUser(deps)({ accountId: globex.id, email: 'boss@globex.test', password: PASSWORD }));
  const sessionOf = async (email: string): Promise<SessionUser> => {
    const signedIn = await right(signIn(deps)({ email, password: PASSWORD }));
    return right(authenticateSession(deps)(signedIn.sessionToken));
  };
  const admin = await sessionOf('admin@acme.test');
  /** The invitations e-mailed so far: the events in the outbox. */
  const sent = () => world.state.outbox.filter((e) => UserInvited.is(e));
  const tokenOf = (event: UserInvited | undefined) => {
    assert.ok(event, 'an invitation was e-mailed');
    return new URL(event.data.accept_url).searchParams.get('token')!;
  };
  const invite = (email: string, siteIds: readonly number[] = [], session = admin, asAdmin = false) =>
    createInvitation(deps)(session, { email, siteIds, admin: asAdmin })();
  const accept = (token: string, password = INVITEE_PASSWORD) =>
    acceptInvitation(deps)({ token, password })();
  const open = async () => (await right(listInvitations(deps)(admin, PAGE))).items;
  return {
    world,
    deps,
    account,
    production,
    development,
    member,
    globex,
    globexSite,
    admin,
    sessionOf,
    sent,
    tokenOf,
    invite,
    accept,
    open,
  };
};
