import * as E from 'fp-ts/lib/Either.js';
import { unauthorized, verifyPrincipal } from '@esign/platform';
import type { Caller } from '../../application/webhooks/webhook-errors.js';

/**
 * The caller as the gateway vouches for it (`x-esign-principal`, a short-lived JWT the
 * gateway signs with INTERNAL_TOKEN_SECRET). Without a valid one nothing under /v1.1
 * answers: the notifier trusts no scope it cannot verify.
 */
export const callerOf = async (secret: string, header: string | undefined): Promise<Caller> => {
  if (header === undefined || header === '')
    throw unauthorized(
      'This call carries no verified principal: call the API through the gateway.',
      'unauthenticated',
    );
  const verified = await verifyPrincipal(secret, header);
  if (E.isLeft(verified)) throw unauthorized('The forwarded principal is not valid.', 'invalid_principal');
  return { sites: verified.right.sites };
};
