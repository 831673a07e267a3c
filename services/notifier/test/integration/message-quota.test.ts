import assert from 'node:assert/strict';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { createRateLimiter, memoryRateLimiter, type RateLimiterHandle } from '@esign/platform';
import { redisKeyPrefix, redisUrl, testLogger } from '@esign/testing';
import { limiterMessageQuota, type PerDay } from '../../src/adapters/quota/limiter-message-quota.js';
import type { MessageQuota } from '../../src/ports/message-quota.js';

const PER_DAY: PerDay = { site: { email: 100, sms: 3 }, recipient: { email: 2, sms: 100 } };

describe('notifier: daily message quotas in Redis', () => {
  const handles: RateLimiterHandle[] = [];
  after(async () => Promise.all(handles.map((h) => h.close())));

  /** One notifier replica's quota: the shared limiter over the same Redis and key prefix. */
  const replica = (keyPrefix: string, now: () => number): MessageQuota => {
    const handle = createRateLimiter(
      { redisUrl: redisUrl(), keyPrefix, timeoutMs: 2000, replicas: 2, label: 'message quotas' },
      { now, logger: testLogger(), enabled: true, local: memoryRateLimiter({ now, maxBuckets: 100 }) },
    );
    handles.push(handle);
    return limiterMessageQuota({ limit: handle.limit, perDay: PER_DAY });
  };

  it("MEDIUM 6: two notifier replicas share one Site's SMS quota and one recipient's e-mail quota", async () => {
    const prefix = redisKeyPrefix('message-quota');
    const now = () => Date.parse('2025-03-01T10:00:00Z');
    const a = replica(prefix, now);
    const b = replica(prefix, now);
    const sms = (quota: MessageQuota, n: number) =>
      TE.toUnion(quota({ siteId: 41, channel: 'sms', recipient: `+1202555010${n}` }))();
    const answers = [await sms(a, 1), await sms(b, 2), await sms(a, 3), await sms(b, 4), await sms(a, 5)];
    assert.deepEqual(
      answers.map((d) => d._tag),
      ['Allowed', 'Allowed', 'Allowed', 'Exhausted', 'Exhausted'],
    );
    assert.deepEqual(answers[3], {
      _tag: 'Exhausted',
      scope: 'site',
      perDay: 3,
      retryAfterSeconds: 28_800,
    });
    // Another Site is not held back by it.
    assert.equal(
      (await TE.toUnion(a({ siteId: 42, channel: 'sms', recipient: '+12025550101' }))())._tag,
      'Allowed',
    );

    // A recipient, across Sites and replicas; the address's case does not make a new one.
    const mail = (quota: MessageQuota, siteId: number, recipient: string) =>
      TE.toUnion(quota({ siteId, channel: 'email', recipient }))();
    assert.equal((await mail(a, 41, 'victim@example.com'))._tag, 'Allowed');
    assert.equal((await mail(b, 42, 'Victim@Example.com'))._tag, 'Allowed');
    const third = await mail(a, 43, 'victim@example.com');
    assert.equal(third._tag === 'Exhausted' && third.scope, 'recipient');
  });
});
