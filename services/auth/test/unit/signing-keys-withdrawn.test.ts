import assert from 'node:assert/strict';
import { SIGNING_KEYS_WITHDRAWN } from '@esign/contracts';
import { createTokenForApp } from '../../src/application/admin-tokens.js';
import { createAccount } from '../../src/application/create-account.js';
import { createApp } from '../../src/application/create-app.js';
import { rotateSigningKey } from '../../src/application/signing-keys.js';
import { revokeToken } from '../../src/application/tokens.js';
import { createUser, setUserDisabled } from '../../src/application/users.js';
import { fakeWorld } from '../support/fakes.js';
import { right } from '../support/port-task.js';

const PASSWORD = 'correct horse battery staple';

/** A user of Acme with a Developer App; `tokens` issues that many tokens of it. */
const seed = async () => {
  const world = fakeWorld();
  const { deps } = world;
  const account = await right(createAccount(deps)({ name: 'Acme', apiAccess: true }));
  const user = async (email: string) => {
    const made = await right(createUser(deps)({ accountId: account.id, email, password: PASSWORD }));
    const app = await right(createApp(deps)({ userId: made.id, name: `App of ${email}` }));
    const tokens = async (count: number, expiresInDays = 30) => {
      const issued = [];
      for (let i = 0; i < count; i += 1)
        issued.push(await right(createTokenForApp(deps)({ appId: app.id, expiresInDays })));
      return issued;
    };
    return { ...made, tokens };
  };
  const told = () =>
    world.state.outbox.flatMap((e) =>
      e.type === SIGNING_KEYS_WITHDRAWN ? [[e.data.email, e.data.tokens, e.aggregate_id, e.occurred_at]] : [],
    );
  return { world, deps, user, told };
};

describe('auth use cases: the signing keys withdrawn at once tell whoever held a live token (ADR 0301)', () => {
  it('tells each enabled user with live tokens how many stopped; not for expired, revoked or disabled ones', async () => {
    const s = await seed();
    const lapsed = await s.user('lapsed@acme.test');
    await lapsed.tokens(1, 1);
    s.world.advance(2 * 86_400);
    const busy = await s.user('busy@acme.test');
    await busy.tokens(2);
    const tidy = await s.user('tidy@acme.test');
    const [only] = await tidy.tokens(1);
    await right(revokeToken(s.deps)(only!.record.id));
    const gone = await s.user('gone@acme.test');
    await gone.tokens(1);
    await right(setUserDisabled(s.deps)({ userId: gone.id, disabled: true }));
    const single = await s.user('single@acme.test');
    await single.tokens(1);
    s.world.state.outbox.length = 0;

    // An ordinary rotation withdraws nothing and tells nobody.
    await right(rotateSigningKey(s.deps)({ activateInSeconds: 0, revokePrevious: false }));
    assert.deepEqual(s.told(), []);

    const rotation = await right(rotateSigningKey(s.deps)({ activateInSeconds: 0, revokePrevious: true }));
    assert.ok(rotation.revoked.length >= 1);
    const at = s.world.deps.clock.now().toISOString();
    assert.deepEqual(s.told(), [
      ['busy@acme.test', 2, busy.id, at],
      ['single@acme.test', 1, single.id, at],
    ]);

    // Withdrawn again: the key made since signed no token, and the keys withdrawn before are
    // skipped, so nobody is told twice.
    s.world.state.outbox.length = 0;
    await right(rotateSigningKey(s.deps)({ activateInSeconds: 0, revokePrevious: true }));
    assert.deepEqual(s.told(), []);
  });
});
