import type { RequestSigner, SignatureRequest } from '../../domain/signature-request.js';
import { lockedNow, type AuthMethod, type Challenge } from '../../domain/signer-authentication.js';
import type { AuthDeps } from './signer-deps.js';
import type { ExecutionLink } from './verify-link.js';

/** An Execution URL as the code-entry step reads it. */
export interface LinkWithPass extends ExecutionLink {
  /** The pass token from an earlier right code, if the browser carries one. */
  readonly authToken?: string | undefined;
}

/** What the code-entry page shows. */
export interface CodePage {
  readonly request: SignatureRequest;
  readonly signer: RequestSigner;
  readonly method: AuthMethod;
  /** Where the one-time code went, partly hidden (`a•••@example.com`, `•••• 4567`). */
  readonly sentTo: string | null;
  readonly lockedUntil: string | null;
  /** Why no new code was sent just now (the hourly cap on texts). */
  readonly smsLimitUntil: string | null;
  readonly formToken: string;
}

/** The code form's token binds the Request and the signer. */
export const codeBinding = (requestId: string, signerRef: string) => `${requestId}\n${signerRef}\ncode`;

/** `a•••@example.com` / `•••• 4567`: enough for the signer to recognise, little for anyone else. */
const masked = (signer: RequestSigner, method: AuthMethod): string | null => {
  if (method === 'email_otp' && signer.contact.email !== null) {
    const [local, domain] = signer.contact.email.split('@');
    return `${(local ?? '').slice(0, 1)}•••@${domain ?? ''}`;
  }
  if (method === 'sms_otp' && signer.contact.mobileNumber !== null)
    return `•••• ${signer.contact.mobileNumber.slice(-4)}`;
  return null;
};

export const codePage = (
  deps: Pick<AuthDeps, 'formTokens'>,
  request: SignatureRequest,
  signer: RequestSigner,
  challenge: Challenge,
  now: string,
  smsLimitUntil: string | null = null,
): CodePage => ({
  request,
  signer,
  method: challenge.method,
  sentTo: masked(signer, challenge.method),
  lockedUntil: lockedNow(challenge, now)?.until ?? null,
  smsLimitUntil,
  formToken: deps.formTokens.issue(codeBinding(request.id, signer.signerRef), now),
});
