import type { KeyObject } from 'node:crypto';
import { PRINCIPAL_AUDIENCES } from '@esign/contracts';
import { principalOf } from '@esign/platform';
import type { Caller } from '../../application/webhooks/webhook-errors.js';

/** The caller as the gateway vouches for it: the platform verifies, the notifier keeps the sites. */
export const callerOf = async (gatewayKey: KeyObject, header: string | undefined): Promise<Caller> => ({
  sites: (await principalOf({ publicKey: gatewayKey, audience: PRINCIPAL_AUDIENCES.notifier }, header)).sites,
});
