import assert from 'node:assert/strict';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { ed25519KeyGenerator, joseTokenSigner } from '../../src/adapters/crypto/ed25519-keys.js';
import {
  keyEncryption as sharedKeyEncryption,
  KeyEncryptionError,
  parseKeyEncryptionKeys,
  SIGNING_KEY_ENCRYPTION,
} from '@esign/platform';
import { nodeSecrets } from '../../src/adapters/crypto/node-secrets.js';
import { PRODUCTION_SCRYPT, scryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher.js';
import { valueOf } from '../support/port-task.js';

const SECRET_A = 'a'.repeat(32);
const keyEncryption = (keys: Array<{ id: string; secret: string }>) =>
  sharedKeyEncryption(keys, SIGNING_KEY_ENCRYPTION);
const SECRET_B = 'b'.repeat(40);

describe('auth adapters: scrypt password hashing', () => {
  it('hashes with the documented production parameters and a per-user salt', async () => {
    const hasher = scryptPasswordHasher();
    const [one, two] = await Promise.all([
      valueOf(hasher.hash('correct horse battery')),
      valueOf(hasher.hash('correct horse battery')),
    ]);
    assert.match(one, /^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.notEqual(one, two, 'each hash has its own salt');
    assert.equal(await valueOf(hasher.verify('correct horse battery', one)), true);
    assert.equal(await valueOf(hasher.verify('correct horse batterY', one)), false);
    assert.equal(hasher.needsRehash(one), false);
    assert.deepEqual(PRODUCTION_SCRYPT, { logN: 15, r: 8, p: 3 });
  });

  it('verifies hashes made with other parameters, and says they need re-making', async () => {
    const cheap = scryptPasswordHasher({ logN: 10, r: 8, p: 1 });
    const hash = await valueOf(cheap.hash('correct horse battery'));
    const production = scryptPasswordHasher();
    assert.equal(await valueOf(production.verify('correct horse battery', hash)), true);
    assert.equal(production.needsRehash(hash), true);
  });

  it('verifies nothing against a malformed or absurd hash, and spends the work for nobody', async () => {
    const hasher = scryptPasswordHasher({ logN: 10, r: 8, p: 1 });
    assert.equal(await valueOf(hasher.verify('x', 'plaintext')), false);
    assert.equal(
      await valueOf(hasher.verify('x', `$scrypt$ln=30,r=8,p=1$${'A'.repeat(22)}$${'A'.repeat(43)}`)),
      false,
    );
    assert.equal(await valueOf(hasher.verifyNobody('anything')), false);
  });
});

describe('auth adapters: signing keys sealed at rest', () => {
  it('parses KEY_ENCRYPTION_KEYS and names what is wrong', () => {
    assert.deepEqual(parseKeyEncryptionKeys(`k2:${SECRET_B}, k1:${SECRET_A}`), [
      { id: 'k2', secret: SECRET_B },
      { id: 'k1', secret: SECRET_A },
    ]);
    assert.equal(parseKeyEncryptionKeys(''), 'must list at least one id:secret');
    assert.equal(parseKeyEncryptionKeys('k1:short'), 'secret of k1 must be at least 32 characters');
    assert.match(parseKeyEncryptionKeys(SECRET_A) as string, /id:secret/);
    assert.equal(parseKeyEncryptionKeys(`k1:${SECRET_A},k1:${SECRET_B}`), 'lists k1 twice');
  });

  it('opens what it sealed, only with the same kid, and after the encryption key is replaced', () => {
    const old = keyEncryption([{ id: 'k1', secret: SECRET_A }]);
    const sealed = old.seal(Buffer.from('private key'), 'kid-1');
    assert.equal(old.open('k1', sealed, 'kid-1').toString(), 'private key');
    assert.throws(() => old.open('k1', sealed, 'kid-2'), KeyEncryptionError);
    const tampered = Buffer.from(sealed);
    tampered[20] = tampered[20]! ^ 1;
    assert.throws(() => old.open('k1', tampered, 'kid-1'), KeyEncryptionError);
    // A new first key seals; the old one, still listed, opens what it sealed.
    const rotated = keyEncryption([
      { id: 'k2', secret: SECRET_B },
      { id: 'k1', secret: SECRET_A },
    ]);
    assert.equal(rotated.currentId, 'k2');
    assert.equal(rotated.open('k1', sealed, 'kid-1').toString(), 'private key');
    const dropped = keyEncryption([{ id: 'k2', secret: SECRET_B }]);
    assert.throws(() => dropped.open('k1', sealed, 'kid-1'), /not in KEY_ENCRYPTION_KEYS/);
  });

  it('signs access tokens that verify against the published key, with the header the seams fix', async () => {
    const encryption = keyEncryption([{ id: 'k1', secret: SECRET_A }]);
    const key = await valueOf(ed25519KeyGenerator(encryption).generate());
    assert.equal(key.publicJwk.kid, key.kid);
    let loads = 0;
    const signer = joseTokenSigner({
      issuer: 'esign-auth',
      encryption,
      loadSealedKey: (kid) => {
        loads++;
        return Promise.resolve(kid === key.kid ? key : undefined);
      },
      publicKeys: () => Promise.resolve([key.publicJwk]),
    });
    const now = Math.floor(Date.now() / 1000);
    const content = { sub: 'u1', jti: 't1', client_id: 'a1', iat: now, exp: now + 60 };
    const jwt = await valueOf(signer.sign(key.kid, content));
    await valueOf(signer.sign(key.kid, content));
    assert.equal(loads, 1, 'the opened key is kept in memory');
    assert.deepEqual(decodeProtectedHeader(jwt), { alg: 'EdDSA', typ: 'at+jwt', kid: key.kid });
    const { payload } = await jwtVerify(jwt, createLocalJWKSet({ keys: [key.publicJwk] }), {
      algorithms: ['EdDSA'],
      issuer: 'esign-auth',
      audience: 'esign-api',
    });
    assert.deepEqual(payload, { ...content, iss: 'esign-auth', aud: 'esign-api' });
    await assert.rejects(valueOf(signer.sign('unknown', content)), /not found/);
  });
});

describe('auth adapters: secrets', () => {
  it('makes 256-bit prefixed secrets and compares fingerprints', () => {
    const secret = nodeSecrets.newSecret('ses_');
    assert.match(secret, /^ses_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(nodeSecrets.newSecret('ses_'), secret);
    assert.ok(nodeSecrets.same(nodeSecrets.fingerprint(secret), nodeSecrets.fingerprint(secret)));
    assert.ok(!nodeSecrets.same(nodeSecrets.fingerprint(secret), nodeSecrets.fingerprint(`${secret}x`)));
    assert.ok(!nodeSecrets.same(new Uint8Array([1]), new Uint8Array([1, 2])));
  });
});
