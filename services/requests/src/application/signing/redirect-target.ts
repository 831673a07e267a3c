import type { RequestSigner, SignatureRequest } from '../../domain/signature-request.js';

/**
 * The client's redirect_url with the Request id, the signer's signer_id and what they did
 * added (any parameters of those names it had are replaced; all others kept).
 */
export const redirectTarget = (
  request: SignatureRequest,
  signer: RequestSigner,
  act: 'signed' | 'declined',
): string | null => {
  if (request.redirectUrl === null) return null;
  const url = new URL(request.redirectUrl);
  url.searchParams.set('request_id', request.id);
  url.searchParams.set('signer_id', signer.signerId);
  url.searchParams.set('status', act);
  return url.toString();
};
