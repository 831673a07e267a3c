import type { Clock, RatePolicy } from '@esign/contracts';
import { optionalRedisRateLimiter, type Logger } from '@esign/platform';
import type { SendAllowance } from '../../ports/send-allowance.js';
import { costlySendAllowance } from './costly-send-allowance.js';

/** A configured rate (`RATE_LIMIT_COSTLY`…), or null when that limit is off. */
type Rate = { readonly quota: number; readonly windowSeconds: number } | null;

const policy = (name: string, rate: Rate): RatePolicy | undefined =>
  rate === null ? undefined : { name, quota: rate.quota, windowSeconds: rate.windowSeconds };

/**
 * The bulk-send worker's pacing (ADR 2201): the gateway's money-costing buckets, by the
 * same names and keys in the same Redis, so a bulk send's rows and single sends draw on
 * one allowance; without `redisUrl` this replica keeps its own buckets.
 */
export const bulkSendPacing = (
  settings: {
    readonly costly: Rate;
    readonly costlyTest: Rate;
    readonly redisUrl: string | undefined;
    readonly keyPrefix: string;
    readonly timeoutMs: number;
    readonly replicas: number;
  },
  logger: Logger,
  clock: Clock,
): { readonly allowance: SendAllowance; readonly close: () => Promise<void> } => {
  const costly = policy('costly', settings.costly);
  const costlyTest = policy('costly_test', settings.costlyTest);
  const policies = { ...(costly && { costly }), ...(costlyTest && { costlyTest }) };
  const enabled = Object.keys(policies).length > 0;
  if (enabled && settings.redisUrl === undefined)
    logger.warn(
      'bulk sends: REDIS_URL is not set, so this replica paces them by its own buckets, not the gateway’s',
    );
  const limiter = optionalRedisRateLimiter(
    {
      redisUrl: settings.redisUrl,
      keyPrefix: settings.keyPrefix,
      timeoutMs: settings.timeoutMs,
      replicas: settings.replicas,
      label: 'bulk-send pacing',
    },
    { now: () => clock.now().getTime(), logger, enabled, maxBuckets: 10_000 },
  );
  return { allowance: costlySendAllowance(limiter.limit, policies), close: limiter.close };
};
