import { createRateLimiter, memoryRateLimiter, type Logger } from '@esign/platform';
import type { RatePolicy } from '@esign/contracts';
import { costlySendAllowance } from './adapters/rate-limit/costly-send-allowance.js';
import type { Config } from './config.js';
import type { SendAllowance } from './ports/send-allowance.js';

const policy = (name: string, rate: Config['RATE_LIMIT_COSTLY']): RatePolicy | undefined =>
  rate === null ? undefined : { name, quota: rate.quota, windowSeconds: rate.windowSeconds };

/**
 * The bulk-send worker's pacing (ADR 2201): the gateway's money-costing buckets, by the
 * same names and keys in the same Redis, so a bulk send's rows and single sends draw on
 * one allowance; without REDIS_URL this replica keeps its own buckets.
 */
export const bulkSendPacing = (
  config: Config,
  logger: Logger,
): { readonly allowance: SendAllowance; readonly close: () => Promise<void> } => {
  const costly = policy('costly', config.RATE_LIMIT_COSTLY);
  const costlyTest = policy('costly_test', config.RATE_LIMIT_COSTLY_TEST);
  const policies = { ...(costly && { costly }), ...(costlyTest && { costlyTest }) };
  const enabled = Object.keys(policies).length > 0;
  if (enabled && config.REDIS_URL === undefined)
    logger.warn(
      'bulk sends: REDIS_URL is not set, so this replica paces them by its own buckets, not the gateway’s',
    );
  const now = () => Date.now();
  const limiter = createRateLimiter(
    {
      redisUrl: config.REDIS_URL ?? 'redis://127.0.0.1:6379',
      keyPrefix: config.RATE_LIMIT_KEY_PREFIX,
      timeoutMs: config.REDIS_TIMEOUT_MS,
      replicas: config.REQUESTS_REPLICAS,
      label: 'bulk-send pacing',
    },
    {
      now,
      logger,
      enabled: enabled && config.REDIS_URL !== undefined,
      local: memoryRateLimiter({ now, maxBuckets: 10_000 }),
    },
  );
  return { allowance: costlySendAllowance(limiter.limit, policies), close: limiter.close };
};
