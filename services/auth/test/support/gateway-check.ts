import * as E from 'fp-ts/lib/Either.js';
import { INTROSPECTION_PATH, JWKS_PATH, TokenIntrospection } from '@esign/contracts';
import { accessTokenKeys, verifyAccessToken } from '@esign/platform';

export interface Decision {
  readonly status: 200 | 401 | 403 | 503;
  readonly reason: string;
}

/**
 * What the gateway decides for `Authorization` on a call to site `siteId`, using only
 * auth's public seams over real HTTP: the shared verifier against auth's JWKS, then
 * introspection for revocation and the sites reached now. Tests use it to prove that
 * auth gives the gateway everything it needs; the gateway's own code is its own.
 */
export const gatewayCheck = (authUrl: string, internalSecret: string, issuer = 'esign-auth') => {
  // No cooldown: a test rotates a key and presents its token at once (in production
  // the key is published minutes before it signs, longer than the 30 s cooldown).
  const keys = accessTokenKeys(new URL(JWKS_PATH, authUrl), { cooldownMs: 0 });
  return async (authorization: string | undefined, siteId: number): Promise<Decision> => {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    if (token === undefined) return { status: 401, reason: 'no bearer token' };
    const verified = await verifyAccessToken(keys, token, { issuer });
    if (E.isLeft(verified))
      return {
        status: verified.left.reason === 'keys_unavailable' ? 503 : 401,
        reason: verified.left.reason,
      };
    const response = await fetch(new URL(INTROSPECTION_PATH, authUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${internalSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ token_id: verified.right.jti }),
    });
    if (response.status !== 200) return { status: 503, reason: `introspection answered ${response.status}` };
    const answer = TokenIntrospection.decode(await response.json());
    if (E.isLeft(answer)) return { status: 503, reason: 'introspection answer malformed' };
    if (!answer.right.active) return { status: 401, reason: 'inactive' };
    if (answer.right.sub !== verified.right.sub) return { status: 401, reason: 'subject mismatch' };
    return answer.right.sites.some((s) => s.id === siteId)
      ? { status: 200, reason: 'ok' }
      : { status: 403, reason: 'site not reached' };
  };
};
