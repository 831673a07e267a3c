/* eslint-disable @typescript-eslint/require-await -- the fakes implement async ports synchronously. */
import type { AccountEvent } from '@esign/contracts';
import type { TokenRecord, User } from '../../src/domain/model.js';
import type { KeyGenerator, KeyStore, StoredKey, TokenSigner } from '../../src/ports/signing-keys.js';
import { maybe, task } from './port-task.js';

/** Signing keys, their generator and a readable stand-in for JWTs, over the fake world's maps. */
export const fakeSigningKeys = (world: {
  readonly keys: Map<string, StoredKey>;
  readonly tokens: ReadonlyMap<string, TokenRecord>;
  readonly users: ReadonlyMap<string, User>;
  readonly outbox: AccountEvent[];
  readonly next: () => string;
}) => {
  const { keys, tokens, next } = world;
  const keyStore: KeyStore = {
    list: () =>
      task(async () =>
        [...keys.values()].map((k) => {
          const live = [...tokens.values()]
            .filter((t) => t.kid === k.kid && t.revokedAt === null)
            .map((t) => t.expiresAt.getTime());
          return { ...k, lastTokenExpiresAt: live.length === 0 ? null : new Date(Math.max(...live)) };
        }),
      ),
    insert: (key, createdAt, activatesAt) =>
      task(
        async () =>
          void keys.set(key.kid, {
            ...key,
            createdAt,
            activatesAt,
            revokedAt: null,
            lastTokenExpiresAt: null,
          }),
      ),
    revoke: (kids, at, tell) =>
      task(async () => {
        const withdrawn = kids.filter((kid) => keys.get(kid)?.revokedAt === null);
        for (const kid of withdrawn) keys.set(kid, { ...keys.get(kid)!, revokedAt: at });
        const live = new Map<string, number>();
        for (const token of tokens.values())
          if (withdrawn.includes(token.kid) && token.revokedAt === null && token.expiresAt > at)
            live.set(token.userId, (live.get(token.userId) ?? 0) + 1);
        const holders = [...live]
          .map(([userId, count]) => ({ user: world.users.get(userId), count }))
          .filter(({ user }) => user !== undefined && user.disabledAt === null)
          .map(({ user, count }) => ({ userId: user!.id, email: user!.email, tokens: count }))
          .sort((a, b) => a.email.localeCompare(b.email));
        if (withdrawn.length > 0) world.outbox.push(...tell(holders));
      }),
  };

  const keyGenerator: KeyGenerator = {
    generate: () =>
      task(async () => {
        const kid = `kid-${next()}`;
        return {
          kid,
          publicJwk: { kty: 'OKP', crv: 'Ed25519', x: `x-${kid}`, kid, alg: 'EdDSA', use: 'sig' },
          encryptionKeyId: 'k1',
          sealedPrivateKey: new Uint8Array([1]),
        };
      }),
  };

  const signer: TokenSigner = {
    sign: (kid, c) => task(async () => `jwt.${kid}.${c.jti}.${c.exp}.${c.client_id}`),
    verify: (token) =>
      maybe(async () => {
        const parts = token.split('.');
        const jti = parts[2];
        const clientId = parts[4];
        return parts[0] === 'jwt' && jti !== undefined && clientId !== undefined && tokens.has(jti)
          ? { jti, clientId }
          : undefined;
      }),
  };
  return { keyStore, keyGenerator, signer };
};
