import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { sleepUntilDueMs, type DueSchedule, type Logger, type ShutdownStep } from '@esign/platform';
import type { DatabasePool } from '@esign/platform/database';
import { every, recurring } from './adapters/periodic.js';
import {
  purgeDeletedTemplates,
  purgeIdempotencyKeys,
  purgeUnsignedAttachments,
} from './adapters/postgres/maintenance.js';
import type { UseCases } from './application/use-cases.js';
import type { Config } from './config.js';

const EXPIRY_BATCH = 100;
/** Requests one transaction of the reminder sweep settles (ADR 3130). */
const REMINDER_BATCH = 100;
/**
 * Executed documents issued per run of the background issuer; how soon it runs again
 * while the relay's LISTEN connection is down, and at most while it is up (a Request's
 * completion wakes every replica's issuer then, ADR 2920).
 */
const ISSUE_BATCH = 5;
const ISSUE_INTERVAL_MS = 2000;
const ISSUE_LISTENING_IDLE_MS = 10_000;
/** Bulk-send rows per worker run, and how long a claimed row is held. */
const BULK_BATCH = 20;
const BULK_LEASE_MS = 15_000;
/**
 * How soon the worker runs again after a run that settled rows (ADR 2680), and after one
 * that settled none: until the next pending row falls due, at most the idle interval while
 * the relay's LISTEN connection hears bulk sends committed on other replicas, 1 s while it
 * does not (ADR 2910). A bulk send committed on any replica wakes it at once.
 */
const BULK_BUSY_MS = 50;
const BULK_IDLE_MS = 1_000;
const BULK_LISTENING_IDLE_MS = 10_000;
/** Rows of a batch in flight at once (each holds a pooled connection while it runs). */
const BULK_CONCURRENCY = 4;

/**
 * How long a loop that settled nothing waits, given whether other replicas' notifications
 * reach it: until its next row falls due, at most `idlePollIntervalMs`, while they do; its
 * poll interval while they do not (ADRs 2910, 2920). `dueInMs` is read only when it decides.
 */
const idleRunMs = async (
  listening: boolean,
  dueInMs: () => Promise<number | null>,
  schedule: DueSchedule,
): Promise<number> => (listening ? sleepUntilDueMs(await dueInMs(), schedule) : schedule.pollIntervalMs);

/**
 * How long the bulk-send worker waits after a run that settled `settled` rows: 50 ms while
 * rows settle; else, while bulk sends committed on other replicas wake it, until the next
 * pending row falls due, at most 10 s; else 1 s, as before ADR 2910.
 */
export const nextBulkRunMs = async (
  settled: number,
  listening: boolean,
  dueInMs: () => Promise<number | null>,
): Promise<number> =>
  settled > 0
    ? BULK_BUSY_MS
    : idleRunMs(listening, dueInMs, {
        pollIntervalMs: BULK_IDLE_MS,
        idlePollIntervalMs: BULK_LISTENING_IDLE_MS,
      });

/** The channel a bulk send's commit notifies (migration 1768500000000). */
export const BULK_SENDS_CHANNEL = 'bulk_sends';
/** The channel a Request's completion notifies (migration 1768600000000). */
export const EXECUTED_DOCUMENTS_CHANNEL = 'executed_documents';

export interface BackgroundWork {
  /** Runs the bulk-send worker now: a bulk send with rows to make has committed. */
  readonly wakeBulk: () => void;
  /** Runs the executed-document issuer now: a Request has completed. */
  readonly wakeIssuer: () => void;
  /** Stops every loop, waiting for the runs in progress. */
  readonly step: ShutdownStep;
}

/**
 * What runs beside HTTP on every replica: the expiry and reminder sweeps, the executed-document issuer,
 * the bulk-send worker, the idempotency-key purge, the deleted-template purge and the purge of
 * attachments nobody signed with.
 */
export const startBackgroundWork = (options: {
  readonly config: Config;
  readonly logger: Logger;
  readonly pool: DatabasePool;
  readonly cases: UseCases;
  /** The bulk-send worker's step (ADR 2201): settles up to `limit` rows, answers how many. */
  readonly processBulkRows: (
    limit: number,
    leaseMs: number,
    concurrency?: number,
  ) => TE.TaskEither<never, number>;
  /** When the next queued executed document is due to be issued (null: none queued). */
  readonly issuesDueInMs: () => TE.TaskEither<never, number | null>;
  /** Told how many documents a run of the issuer put back for a later try (the metrics). */
  readonly issueFailed?: (count: number) => void;
  /** When the next pending bulk-send row can be claimed (null: none pending). */
  readonly bulkRowsDueInMs: () => TE.TaskEither<never, number | null>;
  /** Whether other replicas' bulk sends and completions wake this one's loops (the relay's LISTEN is up). */
  readonly listening: () => boolean;
}): BackgroundWork => {
  const { config, logger, cases } = options;
  const expiry = every('expire requests', config.EXPIRY_SWEEP_INTERVAL_MS, logger, async () => {
    for (;;) {
      const result = await cases.expireDueRequests(EXPIRY_BATCH)();
      const expired = E.isRight(result) ? result.right : 0;
      if (expired > 0) logger.info({ expired }, 'requests expired');
      if (expired < EXPIRY_BATCH) return;
    }
  });
  // Automatic reminders (ADR 3130), at the expiry sweep's pace: a reminder is due days
  // after the last one, so seconds late is on time; every replica sweeps, sharing the work.
  const reminders = every('remind requests', config.EXPIRY_SWEEP_INTERVAL_MS, logger, async () => {
    for (;;) {
      const result = await cases.remindDueRequests(REMINDER_BATCH)();
      const settled = E.isRight(result) ? result.right : 0;
      if (settled > 0) logger.info({ settled }, 'automatic reminders settled');
      if (settled < REMINDER_BATCH) return;
    }
  });
  // Each Request that completes gets its executed document issued once, here, at once
  // (and so do those completed before documents were kept); a download first issues it too.
  const issue = recurring(
    'issue executed documents',
    logger,
    { firstMs: ISSUE_INTERVAL_MS, retryMs: ISSUE_INTERVAL_MS },
    async () => {
      for (;;) {
        const result = await cases.issueMissingExecutedDocuments(ISSUE_BATCH)();
        const run = E.isRight(result) ? result.right : { issued: 0, failed: [] };
        if (run.issued > 0) logger.info({ issued: run.issued }, 'executed documents issued');
        for (const failure of run.failed)
          logger.warn(failure, 'executed document not issued; tried again later');
        options.issueFailed?.(run.failed.length);
        // Another batch only while this one was full of successes.
        if (run.issued < ISSUE_BATCH) break;
      }
      return idleRunMs(options.listening(), async () => E.toUnion(await options.issuesDueInMs()()), {
        pollIntervalMs: ISSUE_INTERVAL_MS,
        idlePollIntervalMs: ISSUE_LISTENING_IDLE_MS,
      });
    },
  );
  // Bulk sends (ADR 2201): every replica works through pending rows, a batch at a time.
  // One batch per run, so a shutdown waits for one batch at most.
  const bulk = recurring('bulk sends', logger, { firstMs: BULK_BUSY_MS, retryMs: BULK_IDLE_MS }, async () => {
    const settled = E.toUnion(await options.processBulkRows(BULK_BATCH, BULK_LEASE_MS, BULK_CONCURRENCY)());
    if (settled > 0) logger.debug({ settled }, 'bulk-send rows settled');
    return nextBulkRunMs(settled, options.listening(), async () =>
      E.toUnion(await options.bulkRowsDueInMs()()),
    );
  });
  const purge = every('purge idempotency keys', 3_600_000, logger, async () => {
    const purged = await purgeIdempotencyKeys(options.pool, config.IDEMPOTENCY_RETENTION_HOURS);
    if (purged > 0) logger.info({ purged }, 'idempotency keys purged');
  });
  // Deleted templates no Request names, with their documents (ADR 3460), at the same pace.
  const templates = every('purge deleted templates', 3_600_000, logger, async () => {
    const removed = await purgeDeletedTemplates(options.pool, config.DELETED_TEMPLATE_RETENTION_HOURS);
    if (removed > 0) logger.info({ removed }, 'deleted templates removed');
  });
  // Files signers uploaded that nobody will sign with (ADR 3920), at the same pace.
  const files = every('purge unsigned attachments', 3_600_000, logger, async () => {
    const removed = await purgeUnsignedAttachments(options.pool);
    if (removed > 0) logger.info({ removed }, 'attachments nobody signed with removed');
  });
  return {
    wakeBulk: () => bulk.wake(),
    wakeIssuer: () => issue.wake(),
    step: {
      name: 'maintenance',
      run: () =>
        Promise.all([
          expiry.stop(),
          reminders.stop(),
          purge.stop(),
          templates.stop(),
          files.stop(),
          issue.stop(),
          bulk.stop(),
        ]).then(() => undefined),
    },
  };
};
