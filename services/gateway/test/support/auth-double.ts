import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_TYPE,
  INTROSPECTION_PATH,
  JWKS_PATH,
  type SiteGrant,
  type TokenIntrospection,
} from '@esign/contracts';
import { json, startHttpDouble, type Recorded } from './http-double.js';

export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

export const newSigningKey = async (kid: string = randomUUID()): Promise<SigningKey> => {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' } };
};

export interface MintOptions {
  readonly sub?: string;
  readonly jti?: string;
  readonly clientId?: string;
  /** Seconds from now; negative for an expired token. */
  readonly expiresIn?: number;
  readonly key?: SigningKey;
  readonly issuer?: string;
  readonly audience?: string;
  readonly typ?: string;
  /** Leave `kid` out of the header. */
  readonly noKid?: boolean;
}

export type IntrospectionMode = 'up' | 'error' | 'garbage' | 'hang';

/**
 * Stands in for the auth service at its seams with the gateway: a JWKS endpoint
 * serving keys generated here, an introspection endpoint whose answers the test
 * controls (and which checks the internal secret), and a recorder for pass-through routes.
 */
export const startAuthDouble = async (options: {
  readonly internalSecret: string;
  readonly issuer?: string;
}) => {
  const issuer = options.issuer ?? 'esign-auth';
  const published: SigningKey[] = [await newSigningKey()];
  const answers = new Map<string, TokenIntrospection>();
  const introspections: string[] = [];
  const state = { jwksFetches: 0, jwksUp: true, mode: 'up' as IntrospectionMode, introspectionDelayMs: 0 };
  const hanging: Array<() => void> = [];

  const introspect = async (recorded: Recorded, res: ServerResponse) => {
    if (recorded.headers.authorization !== `Bearer ${options.internalSecret}`) {
      return json(res, 401, { code: 'unauthorized' });
    }
    const { token_id } = JSON.parse(recorded.body.toString()) as { token_id: string };
    introspections.push(token_id);
    if (state.introspectionDelayMs > 0) await new Promise((r) => setTimeout(r, state.introspectionDelayMs));
    switch (state.mode) {
      case 'error':
        return json(res, 500, { code: 'internal_error' });
      case 'garbage':
        return json(res, 200, { active: 'yes' });
      case 'hang':
        hanging.push(() => res.destroy());
        return;
      case 'up':
        return json(res, 200, answers.get(token_id) ?? { active: false });
    }
  };

  const double = await startHttpDouble(async (recorded, res) => {
    const path = recorded.url.split('?')[0];
    if (recorded.method === 'GET' && path === JWKS_PATH) {
      state.jwksFetches += 1;
      if (!state.jwksUp) return json(res, 503, { code: 'down' });
      return json(res, 200, { keys: published.map((k) => k.publicJwk) });
    }
    if (recorded.method === 'POST' && path === INTROSPECTION_PATH) return introspect(recorded, res);
    if (path === '/healthz') return json(res, 200, { status: 'ok' });
    json(res, 200, { upstream: 'auth', method: recorded.method, url: recorded.url });
  });

  return {
    url: double.url,
    issuer,
    state,
    introspections,
    /** Every call the double received, pass-through routes included. */
    received: double.received,
    get currentKey(): SigningKey {
      return published[published.length - 1]!;
    },
    /** Publishes a new key (rotation); the old ones stay published. */
    async rotate(): Promise<SigningKey> {
      const key = await newSigningKey();
      published.push(key);
      return key;
    },
    /** A token for `sites`, active in introspection unless told otherwise. */
    async issue(sites: readonly SiteGrant[], mint: MintOptions = {}): Promise<string> {
      const jti = mint.jti ?? randomUUID();
      const sub = mint.sub ?? `user-${randomUUID()}`;
      answers.set(jti, { active: true, sub, token_id: jti, sites: [...sites] });
      return this.mint({ ...mint, jti, sub });
    },
    /** Signs a token without telling introspection about it. */
    async mint(mint: MintOptions = {}): Promise<string> {
      const key = mint.key ?? published[published.length - 1]!;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ client_id: mint.clientId ?? 'app-1' })
        .setProtectedHeader({
          alg: 'EdDSA',
          typ: mint.typ ?? ACCESS_TOKEN_TYPE,
          ...(mint.noKid === true ? {} : { kid: key.kid }),
        })
        .setIssuer(mint.issuer ?? issuer)
        .setAudience(mint.audience ?? ACCESS_TOKEN_AUDIENCE)
        .setSubject(mint.sub ?? 'user-1')
        .setJti(mint.jti ?? randomUUID())
        .setIssuedAt(now - 1)
        .setExpirationTime(now + (mint.expiresIn ?? 3600))
        .sign(key.privateKey);
    },
    answer(tokenId: string, answer: TokenIntrospection): void {
      answers.set(tokenId, answer);
    },
    revoke(tokenId: string): void {
      answers.set(tokenId, { active: false });
    },
    close: async () => {
      hanging.forEach((end) => end());
      await double.close();
    },
  };
};

export type AuthDouble = Awaited<ReturnType<typeof startAuthDouble>>;

/** Reads the `jti` of a compact JWT (tests only; no verification). */
export const jtiOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string }).jti;
