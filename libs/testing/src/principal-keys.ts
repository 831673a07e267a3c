import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { Principal, PrincipalAudience } from '@esign/contracts';
import { generatePrincipalKeyPair, signPrincipal } from '@esign/platform';

/** A gateway principal key pair for tests: the strings the environment carries and the keys. */
export interface PrincipalKeys {
  /** `PRINCIPAL_SIGNING_KEY` (the gateway's private JWK). */
  readonly signingKeyEnv: string;
  /** `PRINCIPAL_PUBLIC_KEY` (what the services hold). */
  readonly publicKeyEnv: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** Signs a principal for one service, as the gateway would, valid for an hour. */
  sign(audience: PrincipalAudience, principal: Principal): Promise<string>;
}

const TEST_PRINCIPAL_TTL_SECONDS = 3600;

export const principalKeys = (): PrincipalKeys => {
  const pair = generatePrincipalKeyPair();
  const privateKey = createPrivateKey({
    key: JSON.parse(pair.signingKey) as Record<string, unknown>,
    format: 'jwk',
  });
  return {
    signingKeyEnv: pair.signingKey,
    publicKeyEnv: pair.publicKey,
    privateKey,
    publicKey: createPublicKey(privateKey),
    // An hour, not the gateway's minute: many files sign one principal in `before()` and
    // use it in every test, and on a busy machine a file can run longer than a minute.
    sign: (audience, principal) => signPrincipal(privateKey, audience, principal, TEST_PRINCIPAL_TTL_SECONDS),
  };
};

/** One pair per test process, for harnesses that do not care which. */
export const testGatewayKeys: PrincipalKeys = principalKeys();
