import { hash } from 'node:crypto';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Clock, RatePolicy } from '@esign/contracts';
import { optionalRedisRateLimiter, type Logger, type RateCharge, type RateLimiter } from '@esign/platform';
import type { Channel } from '../../domain/delivery.js';
import type { MessageQuota, QuotaScope } from '../../ports/message-quota.js';

const DAY_SECONDS = 86_400;

/** Messages a day on each channel; 0 leaves that quota off. */
export type PerDay = Readonly<Record<QuotaScope, Readonly<Record<Channel, number>>>>;

/**
 * The daily quotas as token buckets of the shared limiter (the gateway's, ADR 0903):
 * a bucket of `perDay` messages refilling at `perDay` a day, so a Site or a recipient
 * can never be sent more than that in any 24 hours plus the refill, and a burst spent
 * in the morning comes back through the day rather than all at midnight (ADR 1320).
 * One message is charged to its Site's and its recipient's bucket together, or to
 * neither: a message refused for the recipient does not spend the Site's allowance.
 *
 * Recipients are keyed by a SHA-256 fingerprint of the address or number, so Redis
 * holds no personal data; across Sites, since the cost and the nuisance are per person.
 */
export const limiterMessageQuota = (options: {
  readonly limit: RateLimiter;
  readonly perDay: PerDay;
}): MessageQuota => {
  const policies = new Map<string, RatePolicy>();
  const policy = (scope: QuotaScope, channel: Channel): RatePolicy | undefined => {
    const quota = options.perDay[scope][channel];
    if (quota <= 0) return undefined;
    const name = `${scope}-${channel}-daily`;
    let found = policies.get(name);
    if (found === undefined) {
      found = { name, quota, windowSeconds: DAY_SECONDS };
      policies.set(name, found);
    }
    return found;
  };
  // One-shot (crypto.hash): no Hash object made and dropped for every message.
  const fingerprint = (recipient: string): string =>
    hash('sha256', recipient.trim().toLowerCase(), 'base64url').slice(0, 32);

  return (charge) =>
    TE.rightTask(async () => {
      const charges: { scope: QuotaScope; charge: RateCharge }[] = [];
      const site = policy('site', charge.channel);
      if (site !== undefined)
        charges.push({ scope: 'site', charge: { policy: site, key: String(charge.siteId) } });
      const recipient = policy('recipient', charge.channel);
      if (recipient !== undefined)
        charges.push({
          scope: 'recipient',
          charge: { policy: recipient, key: fingerprint(charge.recipient) },
        });
      if (charges.length === 0) return { _tag: 'Allowed' };
      const decision = await options.limit(charges.map((c) => c.charge))();
      if (decision._tag === 'Allowed') return { _tag: 'Allowed' };
      // A refused charge leaves less than one message in the bucket that refused it.
      const refused = charges.find((_, i) => (decision.status[i]?.remaining ?? 0) < 1) ?? charges[0]!;
      return {
        _tag: 'Exhausted',
        scope: refused.scope,
        perDay: refused.charge.policy.quota,
        retryAfterSeconds: decision.retryAfterSeconds,
      };
    });
};

/**
 * The quotas on the gateway's limiter over the same Redis: shared by every replica, 1/N
 * each while Redis is away (ADR 0903); no connection when every quota is off. Without
 * `redisUrl` this replica counts them alone, at the full quota.
 */
export const sharedMessageQuota = (options: {
  readonly perDay: PerDay;
  readonly redisUrl: string | undefined;
  readonly keyPrefix: string;
  readonly timeoutMs: number;
  readonly replicas: number;
  readonly clock: Clock;
  readonly logger: Logger;
}): { readonly quota: MessageQuota; readonly close: () => Promise<void> } => {
  const now = () => options.clock.now().getTime();
  const enabled = Object.values(options.perDay).some((c) => c.email > 0 || c.sms > 0);
  if (enabled && options.redisUrl === undefined)
    options.logger.warn(
      'message quotas: REDIS_URL is not set, so this replica counts them alone; set it when more than one notifier runs',
    );
  const limiter = optionalRedisRateLimiter(
    {
      redisUrl: options.redisUrl,
      keyPrefix: options.keyPrefix,
      timeoutMs: options.timeoutMs,
      replicas: options.replicas,
      label: 'message quotas',
    },
    { now, logger: options.logger, enabled, maxBuckets: 100_000 },
  );
  return {
    quota: limiterMessageQuota({ limit: limiter.limit, perDay: options.perDay }),
    close: limiter.close,
  };
};
