import type { Redis } from 'ioredis';
import { limited, statusOf, type RateDecision } from '@esign/contracts';

import type { MillisClock, RateCharge } from './rate-limiter.js';

/**
 * The token buckets of docs/adr/0403 kept in Redis, so every gateway replica charges the
 * same buckets (ADR 0903). One script call per gateway call: it refills, checks and
 * takes one token from every bucket of the call or from none, atomically, which no
 * sequence of separate commands (nor a fixed-window counter per policy) can promise.
 *
 * A bucket is a hash { t: tokens, u: updated at (ms) }. Its time only moves forward
 * (`max(u, now)`), so replicas whose clocks differ slightly never mint tokens by
 * alternating; and it expires after one window, by when it would be full anyway.
 * Numbers go back as strings: Redis truncates Lua numbers to integers.
 *
 * KEYS: the buckets; ARGV: now, then quota and window (ms) of each bucket in turn.
 * Answers { retry after (ms, "0" when allowed), tokens left in each bucket }.
 */
const CHARGE_SCRIPT = `
local now = tonumber(ARGV[1])
local tokens, stamps, retry = {}, {}, 0
for i = 1, #KEYS do
  local quota, window = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local state = redis.call('HMGET', KEYS[i], 't', 'u')
  local t, u = tonumber(state[1]), tonumber(state[2])
  if t == nil or u == nil then t, u = quota, now end
  local at = math.max(u, now)
  t = math.min(quota, t + (at - u) * quota / window)
  tokens[i], stamps[i] = t, at
  if t < 1 then retry = math.max(retry, (1 - t) * window / quota) end
end
if retry == 0 then
  for i = 1, #KEYS do
    tokens[i] = tokens[i] - 1
    redis.call('HSET', KEYS[i], 't', tostring(tokens[i]), 'u', tostring(stamps[i]))
    redis.call('PEXPIRE', KEYS[i], ARGV[2 * i + 1])
  end
end
local answer = { tostring(retry) }
for i = 1, #KEYS do answer[i + 1] = tostring(tokens[i]) end
return answer
`;

const COMMAND = 'esignChargeBuckets';

interface WithChargeCommand {
  [COMMAND](keys: number, ...args: string[]): Promise<unknown>;
}

const isStrings = (u: unknown): u is string[] =>
  Array.isArray(u) && u.every((item) => typeof item === 'string');

/** Charges the buckets in Redis; the promise rejects when Redis does not answer properly. */
export type SharedCharge = (charges: readonly RateCharge[]) => Promise<RateDecision>;

export const redisRateLimiter = (options: {
  readonly redis: Redis;
  /** Namespaces the buckets, e.g. `esign:rate:`; tests give each run its own. */
  readonly keyPrefix: string;
  readonly now: MillisClock;
}): SharedCharge => {
  const { redis } = options;
  redis.defineCommand(COMMAND, { lua: CHARGE_SCRIPT });
  const client = redis as unknown as WithChargeCommand;
  return async (charges) => {
    const now = options.now();
    const keys = charges.map(({ policy, key }) => `${options.keyPrefix}${policy.name}:${key}`);
    const args = charges.flatMap(({ policy }) => [String(policy.quota), String(policy.windowSeconds * 1000)]);
    const answer = await client[COMMAND](keys.length, ...keys, String(now), ...args);
    if (!isStrings(answer) || answer.length !== charges.length + 1) {
      throw new Error('the rate-limit script answered in an unexpected shape');
    }
    const [retry, ...left] = answer.map(Number);
    if (retry === undefined || [retry, ...left].some((n) => !Number.isFinite(n))) {
      throw new Error('the rate-limit script answered something that is not a number');
    }
    const status = charges.map(({ policy }, i) => statusOf(policy, left[i]!));
    if (retry > 0) return limited(status, retry);
    return {
      _tag: 'Allowed',
      buckets: left.map((tokens) => ({ tokens, updatedAt: now })),
      status,
    };
  };
};
