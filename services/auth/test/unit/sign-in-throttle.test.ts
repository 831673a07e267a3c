import assert from 'node:assert/strict';
import * as O from 'fp-ts/lib/Option.js';
import * as E from 'fp-ts/lib/Either.js';
import { scryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher.js';
import { admitAnonymous } from '../../src/application/admit-anonymous.js';
import { createAccount } from '../../src/application/create-account.js';
import { signIn } from '../../src/application/sign-in.js';
import { createUser } from '../../src/application/users.js';
import { fakeWorld } from '../support/fakes.js';
import { valueOf } from '../support/port-task.js';

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'owner@acme.test';

describe('MEDIUM 7: sign-in throttling an attacker cannot turn against the owner', () => {
  const seeded = async () => {
    const w = fakeWorld();
    const account = await createAccount(w.deps)({ name: 'Acme', apiAccess: true })();
    assert.ok(E.isRight(account));
    assert.ok(
      E.isRight(
        await createUser(w.deps)({ accountId: account.right.id, email: EMAIL, password: PASSWORD })(),
      ),
    );
    return w;
  };

  it('MEDIUM 7: guesses from one address lock out that address only, not the owner elsewhere', async () => {
    const w = await seeded();
    for (let i = 0; i < 8; i++)
      await signIn(w.deps)({ email: EMAIL, password: 'wrong guess', client: '203.0.113.9' })();
    const attacker = await signIn(w.deps)({ email: EMAIL, password: PASSWORD, client: '203.0.113.9' })();
    assert.ok(E.isLeft(attacker) && attacker.left._tag === 'Throttled');
    const owner = await signIn(w.deps)({ email: EMAIL, password: PASSWORD, client: '198.51.100.7' })();
    assert.ok(E.isRight(owner), JSON.stringify(owner));
  });

  it('MEDIUM 7: guesses spread over many addresses meet the per-e-mail cap, which never blocks for over a minute', async () => {
    const w = await seeded();
    let longest = 0;
    for (let i = 0; i < 200; i++) {
      const result = await signIn(w.deps)({
        email: EMAIL,
        password: 'wrong guess',
        client: `10.0.${i >> 8}.${i & 255}`,
      })();
      if (E.isLeft(result) && result.left._tag === 'Throttled')
        longest = Math.max(longest, result.left.retryAfterSeconds);
      // The attacker keeps trying the moment each wait ends.
      if (E.isLeft(result) && result.left._tag === 'Throttled') w.advance(result.left.retryAfterSeconds);
    }
    assert.ok(longest > 0, 'the cap slows them');
    assert.ok(longest <= 60, `the owner waits at most a minute (longest ${longest} s)`);
    // Right after the attacker's last guess, the owner waits at most that minute.
    const blocked = await signIn(w.deps)({ email: EMAIL, password: PASSWORD, client: '198.51.100.7' })();
    if (E.isLeft(blocked)) {
      assert.equal(blocked.left._tag, 'Throttled');
      w.advance(61);
    }
    assert.ok(
      E.isRight(await signIn(w.deps)({ email: EMAIL, password: PASSWORD, client: '198.51.100.7' })()),
    );
  });

  it('MEDIUM 7: a full hasher queue answers Busy at once and counts nothing', async () => {
    const w = await seeded();
    const deps = { ...w.deps, hasher: { ...w.deps.hasher, saturated: () => true } };
    const before = w.state.calls.verify + w.state.calls.verifyNobody;
    assert.deepEqual(
      await signIn(deps)({ email: EMAIL, password: PASSWORD, client: '1.2.3.4' })(),
      E.left({ _tag: 'Busy' }),
    );
    assert.equal(w.state.attempts.size, 0);
    assert.equal(w.state.calls.verify + w.state.calls.verifyNobody, before);
  });

  it('MEDIUM 7: the scrypt hasher reports saturation once its queue is full, and recovers', async () => {
    const hasher = scryptPasswordHasher({ logN: 10, r: 8, p: 1 }, { concurrency: 1, maxQueue: 2 });
    assert.equal(hasher.saturated(), false);
    const running = [valueOf(hasher.hash('one')), valueOf(hasher.hash('two')), valueOf(hasher.hash('three'))];
    assert.equal(hasher.saturated(), true, 'one running, two waiting');
    await Promise.all(running);
    assert.equal(hasher.saturated(), false);
  });

  it('MEDIUM 7: unauthenticated calls are limited per client and in all', async () => {
    const w = fakeWorld();
    const counts = new Map<string, number>();
    const deps = {
      ...w.deps,
      policy: { ...w.deps.policy, anonymous: { perClientPerMinute: 2, globalPerMinute: 3 } },
      quota: {
        take: (limits: readonly { key: string; max: number }[]) => () => {
          let over = false;
          for (const l of limits) {
            counts.set(l.key, (counts.get(l.key) ?? 0) + 1);
            if (counts.get(l.key)! > l.max) over = true;
          }
          return Promise.resolve(E.right(over ? O.some(42) : O.none));
        },
      },
    };
    const admit = (client: string) => admitAnonymous(deps)({ door: 'sign_in', client })();
    assert.ok(E.isRight(await admit('a')));
    assert.ok(E.isRight(await admit('a')));
    assert.deepEqual(await admit('a'), E.left({ _tag: 'RateLimited', retryAfterSeconds: 42 }));
    assert.deepEqual(
      await admit('b'),
      E.left({ _tag: 'RateLimited', retryAfterSeconds: 42 }),
      'the global limit',
    );
    assert.ok(counts.has('sign_in:client:a') && counts.has('sign_in:all'));
  });
});
