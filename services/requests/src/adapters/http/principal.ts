import type { KeyObject } from 'node:crypto';
import { PRINCIPAL_AUDIENCES } from '@esign/contracts';
import { principalOf } from '@esign/platform';
import type { Caller } from '../../application/caller.js';

/** The caller as the gateway vouches for it: the platform verifies, requests keeps who and which sites. */
export const callerOf = async (gatewayKey: KeyObject, header: string | undefined): Promise<Caller> => {
  const principal = await principalOf(
    { publicKey: gatewayKey, audience: PRINCIPAL_AUDIENCES.requests },
    header,
  );
  return {
    sub: principal.sub,
    sites: principal.sites,
    ...(principal.email === undefined ? {} : { email: principal.email }),
    tokenId: principal.token_id,
    testModeOnly: principal.test_mode_only === true,
    frameOrigins: principal.frame_origins ?? [],
  };
};
