import assert from 'node:assert/strict';
import {
  keySchedule,
  keysOtherThan,
  publishedKeys,
  signingKeyAt,
  type KeyMeta,
} from '../../src/domain/signing-keys.js';

const t = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 0, minutes));
const key = (kid: string, over: Partial<KeyMeta> = {}): KeyMeta => ({
  kid,
  createdAt: t(0),
  activatesAt: t(0),
  revokedAt: null,
  lastTokenExpiresAt: null,
  ...over,
});

describe('auth domain: signing key schedule', () => {
  const old = key('old', { lastTokenExpiresAt: t(120) });
  const current = key('current', { createdAt: t(10), activatesAt: t(12) });
  const upcoming = key('upcoming', { createdAt: t(30), activatesAt: t(32) });

  it('signs with the newest key already active', () => {
    assert.equal(signingKeyAt([old, current, upcoming], t(20))?.kid, 'current');
    assert.equal(signingKeyAt([old, current, upcoming], t(11))?.kid, 'old');
    assert.equal(signingKeyAt([old, current, upcoming], t(40))?.kid, 'upcoming');
    assert.equal(signingKeyAt([], t(0)), undefined);
  });

  it('publishes a key before it signs, and a retired key while its tokens live', () => {
    assert.deepEqual(
      publishedKeys([old, current, upcoming], t(31)).map((k) => k.kid),
      ['upcoming', 'current', 'old'],
    );
    // Once `upcoming` signs, `current` signed no token: it goes. The old key's last token
    // expired at 120; five minutes' grace, then it goes too.
    assert.deepEqual(
      publishedKeys([old, current, upcoming], t(124)).map((k) => k.kid),
      ['upcoming', 'old'],
    );
    assert.deepEqual(
      publishedKeys([old, current, upcoming], t(126)).map((k) => k.kid),
      ['upcoming'],
    );
  });

  it('never publishes or signs with a revoked key', () => {
    const revoked = key('revoked', {
      createdAt: t(50),
      activatesAt: t(50),
      revokedAt: t(51),
      lastTokenExpiresAt: t(999),
    });
    assert.equal(signingKeyAt([old, revoked], t(60))?.kid, 'old');
    assert.deepEqual(
      publishedKeys([old, revoked], t(60)).map((k) => k.kid),
      ['old'],
    );
  });

  it('finds every other unrevoked key to withdraw', () => {
    const revoked = key('revoked', { revokedAt: t(1) });
    assert.deepEqual(
      keysOtherThan([old, current, upcoming, revoked], 'current').map((k) => k.kid),
      ['old', 'upcoming'],
    );
  });

  it('tells an operator where each key stands, in the order given', () => {
    const revoked = key('revoked', { revokedAt: t(5) });
    const expired = key('expired', { lastTokenExpiresAt: t(1) });
    assert.deepEqual(
      keySchedule([old, current, upcoming, revoked, expired], t(20)).map(({ key, state, published }) => [
        key.kid,
        state,
        published,
      ]),
      [
        ['old', 'retired', true],
        ['current', 'signing', true],
        ['upcoming', 'upcoming', true],
        ['revoked', 'revoked', false],
        ['expired', 'expired', false],
      ],
    );
  });
});
