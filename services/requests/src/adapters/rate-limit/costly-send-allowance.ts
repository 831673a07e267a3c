import type { RatePolicy } from '@esign/contracts';
import type { RateLimiter } from '@esign/platform';
import type { SendAllowance } from '../../ports/send-allowance.js';

/**
 * The send allowance over the platform's rate limiter, with the gateway's policy names
 * (`costly`, `costly_test`) and keys (the token id), so both charge the same bucket when
 * they share Redis and its key prefix. A policy left out (`off`) allows every send.
 */
export const costlySendAllowance =
  (
    limit: RateLimiter,
    policies: { readonly costly?: RatePolicy; readonly costlyTest?: RatePolicy },
  ): SendAllowance =>
  async ({ tokenId, testModeOnly }) => {
    const policy = testModeOnly ? policies.costlyTest : policies.costly;
    if (policy === undefined) return { _tag: 'Allowed' };
    const decision = await limit([{ policy, key: tokenId }])();
    return decision._tag === 'Allowed'
      ? { _tag: 'Allowed' }
      : { _tag: 'Wait', seconds: decision.retryAfterSeconds };
  };
