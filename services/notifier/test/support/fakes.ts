import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import {
  keyText,
  type Accepted,
  type DeliveryKey,
  type OutcomeEvent,
  type SendFailure,
} from '../../src/domain/delivery.js';
import type { Claim, DeliveryStore } from '../../src/ports/delivery-store.js';
import type { EmailMessage, EmailSender } from '../../src/ports/email-sender.js';
import type { SmsMessage, SmsSender } from '../../src/ports/sms-sender.js';
import type { KeptMessage, TestInbox } from '../../src/ports/test-inbox.js';

/** One message as the in-memory store holds it. */
export interface Row {
  status: 'sending' | 'retrying' | 'delivered' | 'failed';
  attempts: number;
  leaseUntil: number;
  error?: string;
}

/** The deliveries table in memory, with the same claim/settle/defer rules as the Postgres adapter. */
export const memoryStore = () => {
  const rows = new Map<string, Row>();
  const events: OutcomeEvent[] = [];
  let now = 0;
  let down = false;
  /** Runs `f` when the task runs; while the store is down the task rejects, as an outage does. */
  const guard =
    <A>(f: () => A): TE.TaskEither<never, A> =>
    () =>
      down ? Promise.reject(new Error('connection refused')) : Promise.resolve(E.right(f()));
  const store: DeliveryStore = {
    claim: (request) =>
      guard((): Claim => {
        const id = keyText(request.key);
        const row = rows.get(id);
        if (row === undefined) {
          rows.set(id, { status: 'sending', attempts: 1, leaseUntil: now + request.leaseMs });
          return { _tag: 'Claimed', attempt: 1 };
        }
        if (row.status === 'delivered' || row.status === 'failed')
          return { _tag: 'Settled', status: row.status };
        if (row.status === 'sending' && row.leaseUntil > now) return { _tag: 'Busy' };
        row.status = 'sending';
        row.attempts++;
        row.leaseUntil = now + request.leaseMs;
        return { _tag: 'Claimed', attempt: row.attempts };
      }),
    settle: (key, attempt, settlement, event) =>
      guard(() => {
        const row = rows.get(keyText(key));
        if (row?.status !== 'sending' || row.attempts !== attempt) return;
        row.status = settlement._tag === 'Delivered' ? 'delivered' : 'failed';
        events.push(event);
      }),
    defer: (key, attempt, error) =>
      guard(() => {
        const row = rows.get(keyText(key));
        if (row?.status !== 'sending' || row.attempts !== attempt) return;
        row.status = 'retrying';
        row.error = error;
      }),
  };
  return {
    store,
    rows,
    events,
    row: (key: DeliveryKey) => rows.get(keyText(key)),
    advance: (ms: number) => {
      now += ms;
    },
    setDown: (value: boolean) => {
      down = value;
    },
  };
};

type Script<M> = (message: M) => E.Either<SendFailure, Accepted> | 'throw';

/** A sender that records what it was asked to send and answers as `script` says (accepts by default). */
export const recordingSender = <M extends EmailMessage | SmsMessage>(name: string) => {
  const sent: M[] = [];
  let script: Script<M> = () => E.right({ providerMessageId: `${name}-${sent.length}` });
  const sender = {
    name,
    send: (message: M) => () => {
      sent.push(message);
      const answer = script(message);
      if (answer === 'throw') return Promise.reject(new Error('adapter bug'));
      return Promise.resolve(answer);
    },
  };
  return {
    sender,
    sent,
    answer: (next: Script<M>) => {
      script = next;
    },
  };
};

export const emailSender = () => {
  const s = recordingSender<EmailMessage>('email');
  return { ...s, sender: s.sender as EmailSender };
};

export const smsSender = () => {
  const s = recordingSender<SmsMessage>('sms');
  return { ...s, sender: s.sender as SmsSender };
};

/** The test-mode inbox in memory: what `keep` was given, once per message key. */
export const memoryTestInbox = () => {
  const kept = new Map<string, KeptMessage>();
  const inbox: TestInbox = {
    keep: (message) =>
      TE.rightIO(() => {
        const key = `${message.key.eventId}/${message.key.signerRef}/${message.key.channel}`;
        if (!kept.has(key)) kept.set(key, message);
        return { providerMessageId: `test-mode:${key}` };
      }),
    list: (requestId, siteIds, page) =>
      TE.rightIO(() => {
        const items = [...kept.values()]
          .filter((m) => m.requestId === requestId && siteIds.includes(m.siteId))
          .map((m, i) => ({ ...m, id: String(i), createdAt: '2025-03-01T10:00:00.000Z' }));
        const start = (page.page - 1) * page.perPage;
        return { items: items.slice(start, start + page.perPage), total: items.length };
      }),
  };
  return { inbox, kept: () => [...kept.values()] };
};
