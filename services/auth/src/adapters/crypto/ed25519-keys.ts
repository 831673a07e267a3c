import { createPrivateKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, createLocalJWKSet, SignJWT } from 'jose';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_TYPE, type PublicJwk } from '@esign/contracts';
import type { KeyGenerator, NewKey, SealedKey, TokenSigner } from '../../ports/signing-keys.js';
import { verifyAccessToken, type KeyEncryption } from '@esign/platform';

const generate = promisify(generateKeyPair);

/** Ed25519 key pairs; the kid is the RFC 7638 thumbprint of the public key. */
export const ed25519KeyGenerator = (encryption: KeyEncryption): KeyGenerator => ({
  generate: () =>
    TE.fromTask(async (): Promise<NewKey> => {
      const { publicKey, privateKey } = await generate('ed25519');
      const { x } = publicKey.export({ format: 'jwk' });
      if (typeof x !== 'string') throw new Error('Ed25519 public key without x');
      const kid = await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x });
      const publicJwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' };
      const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
      return {
        kid,
        publicJwk,
        encryptionKeyId: encryption.currentId,
        sealedPrivateKey: encryption.seal(pkcs8, kid),
      };
    }),
});

/**
 * Signs access tokens (EdDSA, `typ: at+jwt`, `kid`, `iss`, `aud`). Private keys are
 * opened on first use and kept in memory; a key rotated by another process is loaded
 * when it is first asked for.
 */
export const joseTokenSigner = (options: {
  readonly issuer: string;
  readonly encryption: KeyEncryption;
  readonly loadSealedKey: (kid: string) => Promise<SealedKey | undefined>;
  /** The keys a token of ours may be signed with (for `verify`). */
  readonly publicKeys: () => Promise<PublicJwk[]>;
}): TokenSigner => {
  const opened = new Map<string, Promise<KeyObject>>();
  const privateKey = (kid: string): Promise<KeyObject> => {
    let key = opened.get(kid);
    if (key === undefined) {
      key = (async () => {
        const sealed = await options.loadSealedKey(kid);
        if (sealed === undefined) throw new Error(`signing key ${kid} not found`);
        const der = options.encryption.open(sealed.encryptionKeyId, sealed.sealedPrivateKey, kid);
        return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
      })();
      opened.set(kid, key);
      // A failure is not cached: the next issuance tries again.
      key.catch(() => opened.delete(kid));
    }
    return key;
  };
  return {
    sign: (kid, content) =>
      TE.fromTask(async () =>
        new SignJWT({ client_id: content.client_id })
          .setProtectedHeader({ alg: 'EdDSA', typ: ACCESS_TOKEN_TYPE, kid })
          .setIssuer(options.issuer)
          .setAudience(ACCESS_TOKEN_AUDIENCE)
          .setSubject(content.sub)
          .setJti(content.jti)
          .setIssuedAt(content.iat)
          .setExpirationTime(content.exp)
          .sign(await privateKey(kid)),
      ),
    verify: (token) =>
      TE.fromTask(async () => {
        const keys = createLocalJWKSet({ keys: await options.publicKeys() });
        const verified = await verifyAccessToken(keys, token, { issuer: options.issuer });
        return E.isRight(verified)
          ? O.some({ jti: verified.right.jti, clientId: verified.right.client_id })
          : O.none;
      }),
  };
};
