import * as E from 'fp-ts/lib/Either.js';
import type { RequestSigner, SignatureRequest } from '../../domain/signature-request.js';
import type { AuthMethod } from '../../domain/signer-authentication.js';
import type { Deps } from '../deps.js';

/**
 * Signer authentication (ADR 2001): a right code earns a pass token, carried by the
 * page's forms and links (no cookies); `POST /sign` and `/sign/decline` refuse without
 * one (see `authenticated`).
 */

const passBinding = (requestId: string, signerRef: string, passedMs: number) =>
  `${requestId}\n${signerRef}\nauthenticated\n${passedMs}`;

/** `<passed at, ms>.<token>`: the time the check passed travels with the proof of it. */
export const passToken = (
  deps: Pick<Deps, 'authTokens'>,
  requestId: string,
  signerRef: string,
  at: string,
) => {
  const ms = Date.parse(at);
  return `${ms}.${deps.authTokens.issue(passBinding(requestId, signerRef, ms), at)}`;
};

/**
 * Whether a signer may act: no method, or a pass token for exactly this Request and
 * signer, recent enough. Answers how and when the check passed (for the audit trail).
 */
export const authenticated = (
  deps: Pick<Deps, 'authTokens'>,
  request: SignatureRequest,
  signer: RequestSigner,
  token: string | undefined,
  now: string,
): E.Either<{ readonly _tag: 'AuthenticationRequired' }, { method: AuthMethod; passedAt: string } | null> => {
  if (signer.authentication === null) return E.right(null);
  const match = /^(\d{1,15})\.(.+)$/.exec(token ?? '');
  if (match === null) return E.left({ _tag: 'AuthenticationRequired' });
  const ms = Number(match[1]);
  const verdict = deps.authTokens.verify(passBinding(request.id, signer.signerRef, ms), match[2]!, now);
  return verdict === 'valid'
    ? E.right({ method: signer.authentication, passedAt: new Date(ms).toISOString() })
    : E.left({ _tag: 'AuthenticationRequired' });
};
