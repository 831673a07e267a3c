import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  exhausted,
  refused,
  keyText,
  namedAddress,
  quotaExceeded,
  outcomeEvent,
  planDeliveries,
  type Accepted,
  type DeliveryKey,
  type NoticeEvent,
  type SendFailure,
  type Settlement,
  type Target,
} from '../domain/delivery.js';
import { brandEmail } from '../domain/branded-message.js';
import { composeEmail, composeSms } from '../domain/message-content.js';
import type { DeliveryStore } from '../ports/delivery-store.js';
import type { EmailSender } from '../ports/email-sender.js';
import type { SmsSender } from '../ports/sms-sender.js';
import type { MessageQuota } from '../ports/message-quota.js';
import type { TestInbox } from '../ports/test-inbox.js';
import { keptMessage } from './test-messages.js';
import type { Clock, IdGenerator } from '../ports/runtime.js';
import { runLimited } from './run-limited.js';

export interface NotifySignersDeps {
  readonly store: DeliveryStore;
  readonly email: EmailSender;
  readonly sms: SmsSender;
  /** The Site's and the recipient's daily quotas, charged once per message before it is sent. */
  readonly quota: MessageQuota;
  /** Where the messages of test-mode Requests are kept instead of sent (issue #22). */
  readonly testInbox: TestInbox;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** How long a claimed message keeps other workers off it. */
  readonly leaseMs: number;
  /** Messages of one event sent at the same time. */
  readonly concurrency: number;
  /** Waits between attempts to record an outcome (tests make it instant). */
  readonly pause?: (ms: number) => Promise<void>;
}

/**
 * When to try again to record the outcome of a message that went out while the store is
 * unreachable: backing off, and within half the lease, while the claim still keeps
 * other workers off the message. Past that the message may be sent again by whoever
 * claims it next, so waiting longer would buy nothing.
 */
export const settleRetryDelays = (leaseMs: number): number[] => {
  const delays: number[] = [];
  let total = 0;
  for (let delay = 100; total + delay <= leaseMs / 2; delay = Math.min(delay * 2, 5000)) {
    delays.push(delay);
    total += delay;
  }
  return delays;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Attempt {
  /** No retry follows this one: a transient failure now is recorded as failed. */
  readonly final: boolean;
}

/** What became of one message in this pass. */
export type MessageOutcome =
  | { readonly _tag: 'Delivered'; readonly providerMessageId: string }
  | { readonly _tag: 'Failed'; readonly error: string }
  /** Settled by an earlier delivery of the same event: not sent again. */
  | { readonly _tag: 'AlreadySettled' }
  /** A transient failure, recorded; a later pass tries again. */
  | { readonly _tag: 'WillRetry'; readonly error: string }
  /** Another worker holds it; a later pass looks again. */
  | { readonly _tag: 'Busy' };

export interface MessageReport {
  readonly key: DeliveryKey;
  readonly outcome: MessageOutcome;
}

export interface NotifyReport {
  readonly messages: readonly MessageReport[];
}

/** True while some message of the event still waits for a later pass. */
export const needsRetry = (report: NotifyReport): boolean =>
  report.messages.some((m) => m.outcome._tag === 'WillRetry' || m.outcome._tag === 'Busy');

/**
 * Tells the signers of one event, each message at most once. Every pass looks at every
 * message the event asks for and sends only those not yet settled, so a retry after a
 * partial failure redoes exactly what is missing. A pass answers a report; it rejects
 * only when the store is unreachable (once every message of the pass is done), and then
 * nothing is lost: the messages whose outcome was not recorded are sent again by the retry.
 */
export const notifySigners =
  (deps: NotifySignersDeps) =>
  (event: NoticeEvent, attempt: Attempt): TE.TaskEither<never, NotifyReport> =>
    TE.rightTask(async () => {
      const targets = planDeliveries(event);
      const outcomes = await runLimited(
        targets.map((target) => processTarget(deps, event, attempt, target)),
        deps.concurrency,
      );
      return { messages: outcomes.map((outcome, i) => ({ key: targets[i]!.key, outcome })) };
    });

const send = (
  deps: NotifySignersDeps,
  event: NoticeEvent,
  target: Target,
): TE.TaskEither<SendFailure, Accepted> => {
  if (target._tag === 'Refuse') return TE.left({ _tag: 'Permanent', error: target.reason });
  const idempotencyKey = keyText(target.key);
  const task =
    // A test-mode Request's message is rendered the same way, and kept instead of sent.
    event.test_mode === true
      ? deps.testInbox.keep(keptMessage(event, target))
      : target.key.channel === 'email'
        ? deps.email.send({
            to: target.recipient,
            idempotencyKey,
            ...brandEmail(
              composeEmail(event, target.signer.request_url, target.signer.locale, target.signer.signer_ref),
              event.data.branding,
              target.signer.request_url,
              event.data.site.name,
            ),
          })
        : deps.sms.send({
            to: target.recipient,
            idempotencyKey,
            body: composeSms(event, target.signer.request_url, target.signer.locale),
          });
  // A send that rejects (the test inbox's database is down, or an adapter bug) is treated
  // as transient, so the claim is released and the message retried rather than stuck
  // until its lease ends.
  return () =>
    task().catch((error: unknown): E.Either<SendFailure, Accepted> =>
      E.left({ _tag: 'Transient', error: error instanceof Error ? error.message : String(error) }),
    );
};

const processTarget =
  (deps: NotifySignersDeps, event: NoticeEvent, attempt: Attempt, target: Target) =>
  (): Promise<MessageOutcome> => {
    // A message that went out must not go out again because its outcome could not be
    // written: a store outage is waited out while the claim holds (the same outcome event
    // each time, so a write that did land and only its answer was lost stays one event).
    const settle =
      (attemptNo: number, settlement: Settlement): TE.TaskEither<never, MessageOutcome> =>
      async () => {
        const outcome = outcomeEvent(event, target, settlement, deps.ids.eventId(), deps.clock.now());
        const write = pipe(
          deps.store.settle(target.key, attemptNo, settlement, outcome),
          TE.map((): MessageOutcome => settlement),
        );
        for (const delay of settleRetryDelays(deps.leaseMs)) {
          try {
            return await write();
          } catch {
            await (deps.pause ?? sleep)(delay);
          }
        }
        return write();
      };

    const sendClaimed = (claimAttempt: number): TE.TaskEither<never, MessageOutcome> =>
      pipe(
        send(deps, event, target),
        TE.matchE(
          (error) => {
            if (error._tag === 'Permanent') return settle(claimAttempt, refused(error.error));
            if (attempt.final) return settle(claimAttempt, exhausted(claimAttempt, error.error));
            return pipe(
              deps.store.defer(target.key, claimAttempt, error.error),
              TE.map((): MessageOutcome => ({ _tag: 'WillRetry', error: error.error })),
            );
          },
          (accepted) =>
            settle(claimAttempt, { _tag: 'Delivered', providerMessageId: accepted.providerMessageId }),
        ),
      );

    return pipe(
      deps.store.claim({
        key: target.key,
        requestId: event.data.request_id,
        signerId: target.signer.signer_id,
        recipient: target.recipient,
        siteId: event.site_id,
        address: namedAddress(target),
        leaseMs: deps.leaseMs,
      }),
      TE.chain((claim): TE.TaskEither<never, MessageOutcome> => {
        switch (claim._tag) {
          case 'Settled':
            return TE.right({ _tag: 'AlreadySettled' });
          case 'Busy':
            return TE.right({ _tag: 'Busy' });
          case 'Claimed':
            return pipe(
              chargeQuota(deps, event, target, claim.attempt),
              TE.chain(
                O.match(
                  () => sendClaimed(claim.attempt),
                  (refusal) => settle(claim.attempt, refusal),
                ),
              ),
            );
        }
      }),
      TE.toUnion,
    )();
  };

/**
 * A message is charged to the quotas on its first attempt only: a retry after a
 * transient failure is the same message, and a refusal settles it for good. Answers
 * the settlement that refuses it, or none to send it.
 */
const chargeQuota = (
  deps: NotifySignersDeps,
  event: NoticeEvent,
  target: Target,
  attempt: number,
): TE.TaskEither<never, O.Option<Settlement>> => {
  // Test-mode messages leave nothing: they cost no one's quota (issue #22).
  if (target._tag === 'Refuse' || attempt > 1 || event.test_mode === true) return TE.right(O.none);
  return pipe(
    deps.quota({ siteId: event.site_id, channel: target.key.channel, recipient: target.recipient }),
    TE.map((decision) =>
      decision._tag === 'Allowed'
        ? O.none
        : O.some(
            quotaExceeded(target.key.channel, decision.scope, decision.perDay, decision.retryAfterSeconds),
          ),
    ),
  );
};
