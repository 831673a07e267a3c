import type { RatePolicy } from '@esign/contracts';
import type { RateLimiter } from '@esign/platform';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { Allowance, SendAllowance } from '../../ports/send-allowance.js';

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
  ({ tokenId, testModeOnly }) => {
    const policy = testModeOnly ? policies.costlyTest : policies.costly;
    if (policy === undefined) return TE.right({ _tag: 'Allowed' });
    return pipe(
      TE.rightTask(limit([{ policy, key: tokenId }])),
      TE.map((decision): Allowance =>
        decision._tag === 'Allowed'
          ? { _tag: 'Allowed' }
          : { _tag: 'Wait', seconds: decision.retryAfterSeconds },
      ),
    );
  };
