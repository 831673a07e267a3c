import assert from 'node:assert/strict';
import {
  introspect,
  sitesBeyondUser,
  tokenState,
  expiryOf,
  type IntrospectionSubject,
} from '../../src/domain/tokens.js';
import { checkNewPassword } from '../../src/domain/password-policy.js';
import * as E from 'fp-ts/lib/Either.js';

const now = new Date('2030-01-01T12:00:00Z');
const subject = (over: Partial<IntrospectionSubject> = {}): IntrospectionSubject => ({
  tokenId: 't1',
  userId: 'u1',
  expiresAt: new Date('2030-01-02T00:00:00Z'),
  revokedAt: null,
  userDisabled: false,
  appUnusable: false,
  apiAccess: true,
  keyRevoked: false,
  sites: [
    { id: 9, name: 'Production' },
    { id: 3, name: 'Development' },
  ],
  ...over,
});

describe('auth domain: tokens', () => {
  it('L10: a token limited to some Sites reaches those the user still belongs to, and no other', () => {
    const limited = introspect(subject({ siteLimit: [9, 42] }), now);
    assert.ok(limited.active);
    assert.deepEqual(limited.sites, [{ id: 9, name: 'Production' }]);
    const unlimited = introspect(subject({ siteLimit: null }), now);
    assert.ok(unlimited.active);
    assert.deepEqual(
      unlimited.sites.map((site) => site.id),
      [3, 9],
    );
    assert.deepEqual(sitesBeyondUser([3, 9, 42], [{ id: 3 }, { id: 9 }]), [42]);
    assert.deepEqual(sitesBeyondUser([3], [{ id: 3 }, { id: 9 }]), []);
  });

  it('issue #22: a test-only token says so in its introspection; others do not mention it', () => {
    const testOnly = introspect(subject({ testModeOnly: true }), now);
    assert.ok(testOnly.active && testOnly.test_mode_only === true);
    assert.equal('test_mode_only' in introspect(subject({ testModeOnly: false }), now), false);
  });

  it('answers an active token with its user and the sites they reach now, by id', () => {
    assert.deepEqual(introspect(subject(), now), {
      active: true,
      sub: 'u1',
      token_id: 't1',
      sites: [
        { id: 3, name: 'Development' },
        { id: 9, name: 'Production' },
      ],
    });
  });

  it('answers a bare inactive for every reason a token cannot be used', () => {
    const cases: Array<Partial<IntrospectionSubject>> = [
      { revokedAt: new Date('2030-01-01T11:00:00Z') },
      { expiresAt: now },
      { userDisabled: true },
      { appUnusable: true },
      { apiAccess: false },
      { keyRevoked: true },
    ];
    for (const over of cases)
      assert.deepEqual(introspect(subject(over), now), { active: false }, JSON.stringify(over));
    assert.deepEqual(introspect(undefined, now), { active: false });
  });

  it('keeps an active token with no sites active: it simply reaches nothing', () => {
    assert.deepEqual(introspect(subject({ sites: [] }), now), {
      active: true,
      sub: 'u1',
      token_id: 't1',
      sites: [],
    });
  });

  it('names the state a list shows', () => {
    assert.equal(tokenState(subject(), now), 'active');
    assert.equal(tokenState(subject({ expiresAt: now }), now), 'expired');
    assert.equal(tokenState(subject({ revokedAt: now, expiresAt: new Date(0) }), now), 'revoked');
  });

  it('expires on a whole second, as the JWT exp does', () => {
    assert.equal(
      expiryOf(new Date('2030-01-01T00:00:00.999Z'), 60).toISOString(),
      '2030-01-01T00:01:00.000Z',
    );
  });
});

describe('auth domain: new passwords', () => {
  it('wants 12 to 1024 characters, not blank, not the e-mail address', () => {
    assert.ok(E.isRight(checkNewPassword('correct horse battery', 'a@b.co')));
    assert.ok(E.isLeft(checkNewPassword('short', 'a@b.co')));
    assert.ok(E.isLeft(checkNewPassword(' '.repeat(20), 'a@b.co')));
    assert.ok(E.isLeft(checkNewPassword('x'.repeat(1025), 'a@b.co')));
    assert.ok(E.isLeft(checkNewPassword('Alice@Example.com', 'alice@example.com')));
  });

  it('counts characters, not UTF-16 units', () => {
    assert.ok(E.isLeft(checkNewPassword('🔑'.repeat(11), 'a@b.co')));
    assert.ok(E.isRight(checkNewPassword('🔑'.repeat(12), 'a@b.co')));
  });
});
