import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AnyEventEnvelope, WebhookEventType } from '@esign/contracts';
import type { EndpointDisabledAlert } from '../domain/webhook-alert.js';
import type { AttemptResult, EndpointHealth, HealthUpdate, NextStep } from '../domain/webhook-delivery.js';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.js';

/** A delivery claimed for one attempt, with what it takes to make it. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly eventId: string;
  readonly eventType: WebhookEventType;
  /** The exact body, the same bytes on every attempt. */
  readonly payload: string;
  /** This attempt's number (1 for the first). */
  readonly attempt: number;
  readonly createdAt: Date;
  readonly endpoint: Pick<
    WebhookEndpoint,
    'id' | 'url' | 'enabled' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'
  >;
}

export interface AttemptRecord {
  readonly delivery: ClaimedDelivery;
  readonly result: AttemptResult;
  readonly step: NextStep;
  readonly startedAt: Date;
  readonly finishedAt: Date;
  /** Decides the endpoint's failure run from its state, read under a row lock in the same transaction. */
  readonly health: (current: EndpointHealth) => HealthUpdate;
}

export interface AttemptRecorded {
  /** False when the attempt was no longer ours (its lease ran out and another worker took it). */
  readonly recorded: boolean;
  /** The endpoint was turned off by this attempt. */
  readonly disabled: boolean;
}

/** A pending "endpoint disabled" e-mail. */
export interface ClaimedAlert {
  readonly id: string;
  readonly to: string;
  readonly attempt: number;
  readonly alert: EndpointDisabledAlert;
}

/**
 * Deliveries to webhook endpoints: one row per (endpoint, event), with the time of its
 * next attempt. An outage rejects; the dispatcher's next round tries again.
 */
export interface WebhookDeliveryStore {
  /**
   * One delivery per enabled endpoint of the event's site subscribed to its type, once
   * per event however often it arrives (idempotent by event id). Answers how many.
   */
  readonly fanOut: (
    event: AnyEventEnvelope & { readonly type: WebhookEventType },
    payload: string,
  ) => TE.TaskEither<never, number>;
  /** Claims up to `limit` due deliveries (SKIP LOCKED) for `leaseMs`; a crashed worker's come back when it ends. */
  readonly claimDue: (limit: number, leaseMs: number) => TE.TaskEither<never, ClaimedDelivery[]>;
  /** Records an attempt, its delivery's next step and the endpoint's health, in one transaction. */
  readonly recordAttempt: (record: AttemptRecord) => TE.TaskEither<never, AttemptRecorded>;
  /** Settles a claimed delivery as failed without an attempt (its endpoint was turned off meanwhile). */
  readonly cancel: (delivery: ClaimedDelivery, reason: string) => TE.TaskEither<never, void>;
  /** Deletes settled deliveries created before `before`; answers how many. */
  readonly prune: (before: Date, limit: number) => TE.TaskEither<never, number>;
  readonly claimAlerts: (limit: number, leaseMs: number) => TE.TaskEither<never, ClaimedAlert[]>;
  /**
   * How long until the next delivery or alert falls due, in ms on the database's clock: a
   * retry, or the lease of a claimed one running out. Null when none is pending; 0 or less
   * when one is due already.
   */
  readonly nextDueInMs: () => TE.TaskEither<never, number | null>;
  readonly alertSent: (alert: ClaimedAlert, providerMessageId: string) => TE.TaskEither<never, void>;
  /** A failed alert send: retried at `retryAt`, or given up when null. */
  readonly alertFailed: (
    alert: ClaimedAlert,
    error: string,
    retryAt: Date | null,
  ) => TE.TaskEither<never, void>;
}
