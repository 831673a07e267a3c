import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import {
  PrincipalClaims,
  PrincipalOptionalClaims,
  PRINCIPAL_ISSUER,
  type Principal,
  formatErrors,
  renderErrors,
  transform,
  type PrincipalAudience,
} from '@esign/contracts';

/** The claims without the JWT registered ones. */
const StrictPrincipal = t.intersection([t.exact(PrincipalClaims), t.exact(PrincipalOptionalClaims)]);

/** Lifetime of a forwarded principal: long enough for one hop, too short to replay usefully. */
const PRINCIPAL_TTL_SECONDS = 60;

/** The one algorithm: the gateway's Ed25519 key. Nothing symmetric is accepted. */
const PRINCIPAL_ALGORITHM = 'EdDSA';
const PRINCIPAL_TYPE = 'esign-principal+jwt';

/**
 * The gateway's signed statement of who calls and which sites they reach now, for one
 * upstream service only (`aud`): a principal sent to the notifier opens nothing at requests.
 * The gateway always uses the default lifetime; tests that hold one principal for a whole
 * file pass a longer one.
 */
export const signPrincipal = async (
  key: KeyObject,
  audience: PrincipalAudience,
  principal: Principal,
  ttlSeconds: number = PRINCIPAL_TTL_SECONDS,
): Promise<string> =>
  new SignJWT({
    token_id: principal.token_id,
    sites: principal.sites,
    ...(principal.email === undefined ? {} : { email: principal.email }),
    ...(principal.test_mode_only === true && { test_mode_only: true }),
    ...(principal.frame_origins === undefined || principal.frame_origins.length === 0
      ? {}
      : { frame_origins: principal.frame_origins }),
  })
    .setProtectedHeader({ alg: PRINCIPAL_ALGORITHM, typ: PRINCIPAL_TYPE })
    .setSubject(principal.sub)
    .setIssuer(PRINCIPAL_ISSUER)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key);

/** What a service needs to check a principal: the gateway's public key and its own audience. */
export interface PrincipalVerifier {
  readonly publicKey: KeyObject;
  readonly audience: PrincipalAudience;
  /** The time principals are checked against (tests move it); the system clock by default. */
  readonly now?: () => Date;
}

/** Seconds a principal's `exp` may lie in the past (clocks of the gateway and the service differ). */
const CLOCK_TOLERANCE_SECONDS = 5;
/** Verified principals kept per key; the gateway reuses one per token for its cache's TTL. */
const VERIFIED_MAX_ENTRIES = 1_000;

interface Verified {
  readonly principal: Principal;
  /** `exp`, in seconds since the epoch. */
  readonly exp: number;
}

/**
 * Principals already verified, per public key, by audience and exact text (services build
 * their verifier per call; the key object is made once, from the configuration). The gateway signs one
 * principal per token and upstream and forwards the same text on every call while its
 * introspection answer is cached (ADR 1310), so verifying each call again is an Ed25519
 * verification (about a tenth of the requests service's CPU per call) that can only give
 * the same answer until `exp`. Only successes are kept, and each is checked against its
 * `exp` on every use, so an expired principal is refused exactly as before (ADR 2500).
 */
const verifiedCaches = new WeakMap<KeyObject, Map<string, Verified>>();

const cacheOf = (verifier: PrincipalVerifier): Map<string, Verified> => {
  let cache = verifiedCaches.get(verifier.publicKey);
  if (cache === undefined) {
    cache = new Map();
    verifiedCaches.set(verifier.publicKey, cache);
  }
  return cache;
};

const remember = (cache: Map<string, Verified>, key: string, verified: Verified, nowSeconds: number) => {
  if (cache.size >= VERIFIED_MAX_ENTRIES) {
    for (const [k, entry] of cache) if (entry.exp + CLOCK_TOLERANCE_SECONDS <= nowSeconds) cache.delete(k);
    for (const k of cache.keys()) {
      if (cache.size < VERIFIED_MAX_ENTRIES) break;
      cache.delete(k);
    }
  }
  cache.set(key, verified);
};

/** Verifies a forwarded principal; answers why it is refused otherwise. */
export const verifyPrincipal = async (
  verifier: PrincipalVerifier,
  token: string,
): Promise<E.Either<string, Principal>> => {
  const now = verifier.now?.() ?? new Date();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const cache = cacheOf(verifier);
  const key = `${verifier.audience} ${token}`;
  const hit = cache.get(key);
  // jose refuses a token once `exp` <= now - tolerance; a kept one stops being used at the same moment.
  if (hit !== undefined && hit.exp > nowSeconds - CLOCK_TOLERANCE_SECONDS) return E.right(hit.principal);
  if (hit !== undefined) cache.delete(key);
  try {
    const { payload } = await jwtVerify(token, verifier.publicKey, {
      algorithms: [PRINCIPAL_ALGORITHM],
      issuer: PRINCIPAL_ISSUER,
      audience: verifier.audience,
      typ: PRINCIPAL_TYPE,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
      requiredClaims: ['exp'],
    });
    const decoded = StrictPrincipal.decode(payload);
    if (E.isLeft(decoded)) return E.left(renderErrors(formatErrors(decoded.left)));
    remember(cache, key, { principal: decoded.right, exp: payload.exp! }, nowSeconds);
    return E.right(decoded.right);
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return E.left(error.code);
    throw error;
  }
};

const isEd25519 = (key: KeyObject) => key.asymmetricKeyType === 'ed25519';

const parseKeyText = (text: string): { jwk: Record<string, unknown> } | { pem: string } | undefined => {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const jwk: unknown = JSON.parse(trimmed);
      return typeof jwk === 'object' && jwk !== null ? { jwk: jwk as Record<string, unknown> } : undefined;
    } catch {
      return undefined;
    }
  }
  // PEM in one environment variable often arrives with its line breaks escaped.
  if (trimmed.startsWith('-----BEGIN')) return { pem: trimmed.replace(/\\n/g, '\n') };
  return undefined;
};

/**
 * The gateway's principal signing key: an Ed25519 private key as a JWK (JSON, one line)
 * or a PKCS#8 PEM.
 */
export const PrincipalSigningKeyFromEnv = transform<t.StringC, KeyObject>(
  t.string,
  (s) => {
    const parsed = parseKeyText(s);
    const problem = 'must be an Ed25519 private key (a JWK with "d", or a PKCS#8 PEM)';
    if (parsed === undefined) return E.left(problem);
    try {
      const key =
        'jwk' in parsed ? createPrivateKey({ key: parsed.jwk, format: 'jwk' }) : createPrivateKey(parsed.pem);
      return isEd25519(key) ? E.right(key) : E.left(problem);
    } catch {
      return E.left(problem);
    }
  },
  (key) => JSON.stringify(key.export({ format: 'jwk' })),
  (u): u is KeyObject => u instanceof KeyObject && u.type === 'private',
  'PrincipalSigningKeyFromEnv',
);

/**
 * The gateway's public key as the services hold it: an Ed25519 public JWK or SPKI PEM.
 * A private key is refused: a service able to sign principals is what this key split
 * exists to prevent.
 */
export const PrincipalPublicKeyFromEnv = transform<t.StringC, KeyObject>(
  t.string,
  (s) => {
    const parsed = parseKeyText(s);
    const problem = 'must be an Ed25519 public key (a JWK without "d", or an SPKI PEM)';
    if (parsed === undefined) return E.left(problem);
    if ('jwk' in parsed ? 'd' in parsed.jwk : /PRIVATE KEY/.test(parsed.pem))
      return E.left('must be the public key only: this service must not be able to sign principals');
    try {
      const key =
        'jwk' in parsed ? createPublicKey({ key: parsed.jwk, format: 'jwk' }) : createPublicKey(parsed.pem);
      return isEd25519(key) ? E.right(key) : E.left(problem);
    } catch {
      return E.left(problem);
    }
  },
  (key) => JSON.stringify(key.export({ format: 'jwk' })),
  (u): u is KeyObject => u instanceof KeyObject && u.type === 'public',
  'PrincipalPublicKeyFromEnv',
);

/** A fresh key pair as the environment carries it (for `npm start` and tests). */
export const generatePrincipalKeyPair = (): { readonly signingKey: string; readonly publicKey: string } => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    signingKey: JSON.stringify(privateKey.export({ format: 'jwk' })),
    publicKey: JSON.stringify(publicKey.export({ format: 'jwk' })),
  };
};
