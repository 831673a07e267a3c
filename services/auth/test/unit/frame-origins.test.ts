import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { authenticateSession } from '../../src/application/authenticate-session.js';
import { createAccessToken } from '../../src/application/create-access-token.js';
import { createAccount } from '../../src/application/create-account.js';
import { createApp } from '../../src/application/create-app.js';
import { getFrameOrigins, setFrameOrigins } from '../../src/application/frame-origins.js';
import { introspectToken } from '../../src/application/introspect-token.js';
import { signIn } from '../../src/application/sign-in.js';
import { addMember, createSite } from '../../src/application/sites.js';
import { createUser } from '../../src/application/users.js';
import { fakeWorld } from '../support/fakes.js';
import { valueOf } from '../support/port-task.js';

const PASSWORD = 'correct horse battery staple';
const HOST = 'https://portal.acme.test';

const right = async <A>(task: () => Promise<E.Either<unknown, A>>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) throw new Error(`expected Right, got ${JSON.stringify(result.left)}`);
  return result.right;
};

const userWithApp = async (world: ReturnType<typeof fakeWorld>, email: string) => {
  const { deps } = world;
  const account = await right(createAccount(deps)({ name: email, apiAccess: true }));
  const site = await right(createSite(deps)({ accountId: account.id, name: 'Production' }));
  const user = await right(createUser(deps)({ accountId: account.id, email, password: PASSWORD }));
  await right(addMember(deps)({ siteId: site.id, userId: user.id }));
  const signedIn = await right(signIn(deps)({ email, password: PASSWORD }));
  const session = await right(authenticateSession(deps)(signedIn.sessionToken));
  const app = await right(createApp(deps)({ userId: user.id, name: 'Portal' }));
  return { user, session, app, site };
};

/** ADR 2300: an app's allowed_frame_origins, set by its owner and carried by introspection. */
describe('auth use cases: allowed frame origins of a Developer App', () => {
  it('lets the owner set them, and introspection of the app’s tokens carries them', async () => {
    const world = fakeWorld();
    const a = await userWithApp(world, 'dev@acme.test');
    const { record } = await right(
      createAccessToken(world.deps)({ session: a.session, appId: a.app.id, password: PASSWORD }),
    );
    const before = await valueOf(introspectToken(world.deps)(record.id));
    assert.ok(before.active && !('frame_origins' in before), 'no origins: nothing in the answer');
    assert.deepEqual(await right(getFrameOrigins(world.deps)(a.user.id, a.app.id)), {
      app_id: a.app.id,
      allowed_frame_origins: [],
    });
    assert.deepEqual(await right(setFrameOrigins(world.deps)(a.user.id, a.app.id, [HOST])), {
      app_id: a.app.id,
      allowed_frame_origins: [HOST],
    });
    const after = await valueOf(introspectToken(world.deps)(record.id));
    assert.ok(after.active);
    assert.deepEqual(after.frame_origins, [HOST]);
  });

  it("answers someone else's app as missing, and changes nothing", async () => {
    const world = fakeWorld();
    const a = await userWithApp(world, 'dev@acme.test');
    const b = await userWithApp(world, 'dev@globex.test');
    const refused = await setFrameOrigins(world.deps)(b.user.id, a.app.id, ['https://evil.example'])();
    assert.ok(E.isLeft(refused));
    assert.equal(refused.left._tag, 'NotFound');
    assert.deepEqual(
      (await right(getFrameOrigins(world.deps)(a.user.id, a.app.id))).allowed_frame_origins,
      [],
    );
  });
});
