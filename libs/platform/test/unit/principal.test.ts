import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { SignJWT } from 'jose';
import { PRINCIPAL_AUDIENCES, PRINCIPAL_ISSUER } from '@esign/contracts';
import { signPrincipal, verifyPrincipal } from '../../src/index.js';

const gateway = generateKeyPairSync('ed25519');
const requests = { publicKey: gateway.publicKey, audience: PRINCIPAL_AUDIENCES.requests };
const notifier = { publicKey: gateway.publicKey, audience: PRINCIPAL_AUDIENCES.notifier };
const principal = { sub: 'u1', token_id: 't1', sites: [{ id: 7, name: 'Production' }] };

describe('platform: the gateway-signed principal', () => {
  it('round-trips who calls and which sites they reach', async () => {
    const signed = await signPrincipal(gateway.privateKey, PRINCIPAL_AUDIENCES.requests, principal);
    assert.deepEqual(await verifyPrincipal(requests, signed), E.right(principal));
  });

  it('lives 60 s unless told otherwise (tests holding one for a whole file ask for longer)', async () => {
    const lifetime = (jwt: string) => {
      const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<
        string,
        number
      >;
      return claims.exp! - claims.iat!;
    };
    assert.equal(
      lifetime(await signPrincipal(gateway.privateKey, PRINCIPAL_AUDIENCES.requests, principal)),
      60,
    );
    assert.equal(
      lifetime(await signPrincipal(gateway.privateKey, PRINCIPAL_AUDIENCES.requests, principal, 3600)),
      3600,
    );
  });

  it('ADR 2003: carries the user’s e-mail address when the gateway has it, and reads one without', async () => {
    const withEmail = { ...principal, email: 'owner@example.com' };
    const signed = await signPrincipal(gateway.privateKey, PRINCIPAL_AUDIENCES.requests, withEmail);
    assert.deepEqual(await verifyPrincipal(requests, signed), E.right(withEmail));
    const verified = await verifyPrincipal(
      requests,
      await signPrincipal(gateway.privateKey, PRINCIPAL_AUDIENCES.requests, principal),
    );
    assert.ok(E.isRight(verified) && !('email' in verified.right));
  });

  it('M5: refuses a principal signed by any key but the gateway’s, or tampered with', async () => {
    const other = generateKeyPairSync('ed25519');
    const forged = await signPrincipal(other.privateKey, PRINCIPAL_AUDIENCES.requests, principal);
    assert.ok(E.isLeft(await verifyPrincipal(requests, forged)));
    const [header, , signature] = (
      await signPrincipal(gateway.privateKey, PRINCIPAL_AUDIENCES.requests, principal)
    ).split('.');
    const widened = Buffer.from(JSON.stringify({ ...principal, sites: [{ id: 8, name: 'x' }] })).toString(
      'base64url',
    );
    assert.ok(E.isLeft(await verifyPrincipal(requests, `${header}.${widened}.${signature}`)));
  });

  it('M5: refuses a principal made with a shared secret (the former HS256 scheme)', async () => {
    const hs256 = await new SignJWT({ token_id: 't1', sites: principal.sites })
      .setProtectedHeader({ alg: 'HS256', typ: 'esign-principal+jwt' })
      .setSubject('u1')
      .setIssuer(PRINCIPAL_ISSUER)
      .setAudience(PRINCIPAL_AUDIENCES.requests)
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(new TextEncoder().encode('a-shared-internal-secret-of-32-characters'));
    assert.deepEqual(await verifyPrincipal(requests, hs256), E.left('ERR_JOSE_ALG_NOT_ALLOWED'));
  });

  it('M5: refuses a principal minted for one service at another', async () => {
    const forRequests = await signPrincipal(gateway.privateKey, PRINCIPAL_AUDIENCES.requests, principal);
    const forNotifier = await signPrincipal(gateway.privateKey, PRINCIPAL_AUDIENCES.notifier, principal);
    assert.ok(E.isLeft(await verifyPrincipal(notifier, forRequests)));
    assert.ok(E.isLeft(await verifyPrincipal(requests, forNotifier)));
    assert.ok(E.isRight(await verifyPrincipal(notifier, forNotifier)));
  });

  it('refuses garbage', async () => {
    assert.ok(E.isLeft(await verifyPrincipal(requests, 'not-a-jwt')));
  });

  describe('verified once, reused until it expires (ADR 2500)', () => {
    it('refuses a principal it accepted before once its exp has passed (plus the 5 s tolerance)', async () => {
      let now = new Date();
      const verifier = { ...requests, now: () => now };
      const signed = await signPrincipal(gateway.privateKey, PRINCIPAL_AUDIENCES.requests, principal);
      assert.deepEqual(await verifyPrincipal(verifier, signed), E.right(principal));
      now = new Date(now.getTime() + 30_000);
      assert.deepEqual(await verifyPrincipal(verifier, signed), E.right(principal));
      now = new Date(now.getTime() + 36_000);
      assert.deepEqual(await verifyPrincipal(verifier, signed), E.left('ERR_JWT_EXPIRED'));
      assert.deepEqual(await verifyPrincipal(verifier, signed), E.left('ERR_JWT_EXPIRED'));
    });

    it('keeps what one verifier accepted from any other: a principal for requests stays refused at the notifier', async () => {
      const forRequests = await signPrincipal(gateway.privateKey, PRINCIPAL_AUDIENCES.requests, principal);
      assert.ok(E.isRight(await verifyPrincipal(requests, forRequests)));
      assert.ok(E.isLeft(await verifyPrincipal(notifier, forRequests)));
      const otherKey = { publicKey: generateKeyPairSync('ed25519').publicKey, audience: requests.audience };
      assert.ok(E.isLeft(await verifyPrincipal(otherKey, forRequests)));
    });

    it('still refuses a tampered copy of a principal it accepted', async () => {
      const signed = await signPrincipal(gateway.privateKey, PRINCIPAL_AUDIENCES.requests, principal);
      assert.ok(E.isRight(await verifyPrincipal(requests, signed)));
      const [header, , signature] = signed.split('.');
      const widened = Buffer.from(
        JSON.stringify({ ...principal, sites: [{ id: 8, name: 'x' }], exp: 4_000_000_000 }),
      ).toString('base64url');
      assert.ok(E.isLeft(await verifyPrincipal(requests, `${header}.${widened}.${signature}`)));
    });

    it('refuses a principal without an expiry, which could otherwise be kept for ever', async () => {
      const endless = await new SignJWT({ token_id: 't1', sites: principal.sites })
        .setProtectedHeader({ alg: 'EdDSA', typ: 'esign-principal+jwt' })
        .setSubject('u1')
        .setIssuer(PRINCIPAL_ISSUER)
        .setAudience(PRINCIPAL_AUDIENCES.requests)
        .setIssuedAt()
        .sign(gateway.privateKey);
      assert.deepEqual(await verifyPrincipal(requests, endless), E.left('ERR_JWT_CLAIM_VALIDATION_FAILED'));
    });
  });
});
