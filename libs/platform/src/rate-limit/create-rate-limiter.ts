import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';

import { memoryRateLimiter } from './memory-rate-limiter.js';
import type { MillisClock, RateLimiter } from './rate-limiter.js';
import { redisRateLimiter } from './redis-rate-limiter.js';
import { sharedRateLimiter } from './shared-rate-limiter.js';

export interface RateLimiterSettings {
  readonly redisUrl: string;
  readonly keyPrefix: string;
  /** Longest wait for Redis, to connect and per check; then this replica's own buckets. */
  readonly timeoutMs: number;
  /** Gateway replicas sharing the limits: each enforces 1/N alone while Redis is away. */
  readonly replicas: number;
  /** Names the limits in the fallback's log lines (default `rate limits`). */
  readonly label?: string;
}

export interface RateLimiterHandle {
  readonly limit: RateLimiter;
  readonly close: () => Promise<void>;
}

/**
 * A rate limiter over token buckets in Redis shared by the fleet, with this replica's
 * memory as the fallback (ADR 0903): the gateway's API limits, the notifier's message
 * quotas (ADR 1320). No connection is made when every limit is off.
 */
export const createRateLimiter = (
  settings: RateLimiterSettings,
  deps: {
    readonly now: MillisClock;
    readonly logger: Logger;
    readonly enabled: boolean;
    /** This replica's own buckets: the limiter when every limit is off, the fallback otherwise. */
    readonly local: RateLimiter;
  },
): RateLimiterHandle => {
  const { local } = deps;
  if (!deps.enabled) return { limit: local, close: () => Promise.resolve() };

  const redis = new Redis(settings.redisUrl, {
    // A call never queues behind a reconnection: while Redis is away, the fallback answers.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: settings.timeoutMs,
    commandTimeout: settings.timeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 250, 2000),
  });
  // The limiter logs outages once; ioredis would otherwise print each failed reconnect.
  redis.on('error', (error: unknown) => deps.logger.debug({ err: error }, 'redis connection error'));
  // The first calls wait for the first connection attempt rather than start degraded.
  const firstAttempt = new Promise<boolean>((resolve) => {
    redis.once('ready', () => resolve(true));
    for (const event of ['error', 'close', 'end']) redis.once(event, () => resolve(false));
    setTimeout(() => resolve(false), settings.timeoutMs).unref();
  });
  const ready = () => redis.status === 'ready';
  const available = async () => ready() || ((await firstAttempt) && ready());

  return {
    limit: sharedRateLimiter({
      shared: redisRateLimiter({ redis, keyPrefix: settings.keyPrefix, now: deps.now }),
      available,
      local,
      replicas: settings.replicas,
      logger: deps.logger,
      ...(settings.label === undefined ? {} : { label: settings.label }),
    }),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
};

/**
 * The limiter of a service whose Redis is optional (the notifier's message quotas,
 * requests' bulk-send pacing): shared in Redis when `redisUrl` is set, otherwise this
 * replica's own buckets alone, at the full quota, with no connection made.
 */
export const optionalRedisRateLimiter = (
  settings: Omit<RateLimiterSettings, 'redisUrl'> & { readonly redisUrl: string | undefined },
  deps: {
    readonly now: MillisClock;
    readonly logger: Logger;
    /** Whether any limit is on. */
    readonly enabled: boolean;
    /** Bounds this replica's own buckets. */
    readonly maxBuckets: number;
  },
): RateLimiterHandle =>
  createRateLimiter(
    { ...settings, redisUrl: settings.redisUrl ?? 'redis://127.0.0.1:6379' },
    {
      now: deps.now,
      logger: deps.logger,
      enabled: deps.enabled && settings.redisUrl !== undefined,
      local: memoryRateLimiter({ now: deps.now, maxBuckets: deps.maxBuckets }),
    },
  );
