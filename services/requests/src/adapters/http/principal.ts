import { principalOf } from '@esign/platform';
import type { Caller } from '../../application/caller.js';

/** The caller as the gateway vouches for it: the platform verifies, requests keeps who and which sites. */
export const callerOf = async (secret: string, header: string | undefined): Promise<Caller> => {
  const principal = await principalOf(secret, header);
  return { sub: principal.sub, sites: principal.sites };
};
