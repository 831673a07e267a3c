import { principalOf } from '@esign/platform';
import type { Caller } from '../../application/webhooks/webhook-errors.js';

/** The caller as the gateway vouches for it: the platform verifies, the notifier keeps the sites. */
export const callerOf = async (secret: string, header: string | undefined): Promise<Caller> => ({
  sites: (await principalOf(secret, header)).sites,
});
