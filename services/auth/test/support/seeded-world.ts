import type { SessionUser } from '../../src/domain/model.js';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { createAccessToken } from '../../src/application/create-access-token.js';
import { createAccount } from '../../src/application/create-account.js';
import { createApp } from '../../src/application/create-app.js';
import { signIn } from '../../src/application/sign-in.js';
import { addMember, createSite } from '../../src/application/sites.js';
import { createUser } from '../../src/application/users.js';
import { fakeWorld, type FakeWorld } from './fakes.js';
import { right } from './port-task.js';

export const PASSWORD = 'correct horse battery staple';

/** An account with two sites and a user who is a member of both, signed in, with one app. */
export const seed = async (world: FakeWorld = fakeWorld()) => {
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

export type Seeded = Awaited<ReturnType<typeof seed>>;

/** An access token of the seeded user, made with the password re-entered. */
export const tokenFor = (s: Seeded, session: SessionUser = s.session) =>
  right(createAccessToken(s.deps)({ session, appId: s.app.id, password: PASSWORD }));
