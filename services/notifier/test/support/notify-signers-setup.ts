import * as TE from 'fp-ts/lib/TaskEither.js';
import { memoryRateLimiter } from '@esign/platform';
import { limiterMessageQuota, type PerDay } from '../../src/adapters/quota/limiter-message-quota.js';
import { notifySigners, type NotifyReport } from '../../src/application/notify-signers.js';
import type { NoticeEvent } from '../../src/domain/delivery.js';
import { emailSender, memoryStore, memoryTestInbox, smsSender } from './fakes.js';

/** The notify-signers use case over in-memory fakes, as its unit tests drive it. */
export const NOW = new Date('2025-03-01T10:00:00.000Z');
export const GENEROUS: PerDay = { site: { email: 1000, sms: 1000 }, recipient: { email: 100, sms: 100 } };

export const setup = (perDay: PerDay = GENEROUS) => {
  let clock = NOW.getTime();
  const db = memoryStore();
  const email = emailSender();
  const sms = smsSender();
  const testInbox = memoryTestInbox();
  const pauses: number[] = [];
  let onPause = (): void => undefined;
  let ids = 0;
  const notify = notifySigners({
    store: db.store,
    email: email.sender,
    sms: sms.sender,
    testInbox: testInbox.inbox,
    quota: limiterMessageQuota({ limit: memoryRateLimiter({ now: () => clock, maxBuckets: 1000 }), perDay }),
    clock: { now: () => new Date(clock) },
    ids: { eventId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}` },
    leaseMs: 60_000,
    concurrency: 4,
    pause: (ms) => {
      pauses.push(ms);
      onPause();
      return Promise.resolve();
    },
  });
  const whenPaused = (f: () => void) => {
    onPause = f;
  };
  const run = (event: NoticeEvent, final = false): Promise<NotifyReport> =>
    TE.toUnion(notify(event, { final }))();
  const advanceClock = (ms: number) => {
    clock += ms;
  };
  return { db, email, sms, testInbox, notify, run, pauses, whenPaused, advanceClock };
};

/** Each message of a report as `ref/channel:outcome`. */
export const tags = (report: NotifyReport) =>
  report.messages.map((m) => `${m.key.signerRef}/${m.key.channel}:${m.outcome._tag}`);
