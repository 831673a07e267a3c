import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { signPrincipal, verifyPrincipal } from '../../src/index.js';

const secret = 'a-test-secret-of-at-least-32-characters';
const principal = { sub: 'u1', token_id: 't1', sites: [{ id: 7, name: 'Production' }] };

describe('platform: the gateway-signed principal', () => {
  it('round-trips who calls and which sites they reach', async () => {
    const verified = await verifyPrincipal(secret, await signPrincipal(secret, principal));
    assert.deepEqual(verified, E.right(principal));
  });

  it('refuses a principal signed with another secret, or tampered with', async () => {
    const forged = await signPrincipal('another-secret-of-at-least-32-characters', principal);
    assert.ok(E.isLeft(await verifyPrincipal(secret, forged)));
    const [header, , signature] = (await signPrincipal(secret, principal)).split('.');
    const widened = Buffer.from(JSON.stringify({ ...principal, sites: [{ id: 8, name: 'x' }] })).toString(
      'base64url',
    );
    assert.ok(E.isLeft(await verifyPrincipal(secret, `${header}.${widened}.${signature}`)));
  });

  it('refuses garbage', async () => {
    assert.ok(E.isLeft(await verifyPrincipal(secret, 'not-a-jwt')));
  });
});
