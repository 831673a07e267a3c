import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { webcrypto } from 'node:crypto';
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import {
  Principal,
  PRINCIPAL_AUDIENCE,
  PRINCIPAL_ISSUER,
  formatErrors,
  renderErrors,
} from '@esign/contracts';

/** The claims without the JWT registered ones. */
const StrictPrincipal = t.exact(Principal);

const keyOf = (secret: string) => new TextEncoder().encode(secret);

/**
 * The HMAC key of a secret, imported once: jose would otherwise import the raw bytes
 * into a CryptoKey on every verification, which was a tenth of the requests service's
 * CPU per call in `npm run bench`.
 */
const verificationKeys = new Map<string, Promise<webcrypto.CryptoKey>>();
const verificationKeyOf = (secret: string): Promise<webcrypto.CryptoKey> => {
  let key = verificationKeys.get(secret);
  if (key === undefined) {
    key = webcrypto.subtle.importKey('raw', keyOf(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    verificationKeys.set(secret, key);
  }
  return key;
};

/** Lifetime of a forwarded principal: long enough for one hop, too short to replay usefully. */
const PRINCIPAL_TTL_SECONDS = 60;

/** The gateway's signed statement of who calls and which sites they reach now. */
export const signPrincipal = async (secret: string, principal: Principal): Promise<string> =>
  new SignJWT({ token_id: principal.token_id, sites: principal.sites })
    .setProtectedHeader({ alg: 'HS256', typ: 'esign-principal+jwt' })
    .setSubject(principal.sub)
    .setIssuer(PRINCIPAL_ISSUER)
    .setAudience(PRINCIPAL_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${PRINCIPAL_TTL_SECONDS}s`)
    .sign(keyOf(secret));

/** Verifies a forwarded principal; answers why it is refused otherwise. */
export const verifyPrincipal = async (
  secret: string,
  token: string,
): Promise<E.Either<string, Principal>> => {
  try {
    const { payload } = await jwtVerify(token, await verificationKeyOf(secret), {
      algorithms: ['HS256'],
      issuer: PRINCIPAL_ISSUER,
      audience: PRINCIPAL_AUDIENCE,
      typ: 'esign-principal+jwt',
      clockTolerance: 5,
    });
    const decoded = StrictPrincipal.decode(payload);
    return E.isRight(decoded) ? E.right(decoded.right) : E.left(renderErrors(formatErrors(decoded.left)));
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return E.left(error.code);
    throw error;
  }
};
