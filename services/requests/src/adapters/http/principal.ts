import * as E from 'fp-ts/lib/Either.js';
import { unauthorized, verifyPrincipal } from '@esign/platform';
import type { Caller } from '../../application/caller.js';

/**
 * The caller as the gateway vouches for it. The service trusts no scope it cannot
 * verify: without a valid signed principal, nothing under /v1.1 answers.
 */
export const callerOf = async (secret: string, header: string | undefined): Promise<Caller> => {
  if (header === undefined || header === '') {
    throw unauthorized(
      'This call carries no verified principal: call the API through the gateway.',
      'unauthenticated',
    );
  }
  const verified = await verifyPrincipal(secret, header);
  if (E.isLeft(verified)) throw unauthorized('The forwarded principal is not valid.', 'invalid_principal');
  return { sub: verified.right.sub, sites: verified.right.sites };
};
