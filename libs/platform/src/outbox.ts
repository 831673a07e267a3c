/**
 * Transactional outbox. A service writes its events with `enqueueEvents(tx, events)`
 * (outbox-writes.ts) in the transaction that changes its state; `startOutboxRelay`
 * publishes them to the events exchange and stamps them published. A broker outage
 * delays events, never loses one.
 *
 * The relay claims pending rows with `FOR UPDATE SKIP LOCKED` and holds the lock while
 * it publishes over a confirm channel, so relays on several replicas share the work
 * without publishing the same row twice in the normal case. After a crash between the
 * broker's confirm and the commit, a row is published again: consumers dedupe by event
 * id (see `consumeEvents`). It wakes on Postgres NOTIFY (a trigger fires at commit);
 * between rounds it sleeps until the next pending row falls due, within a longest sleep
 * (`relaySleepMs`, ADR 2890); while the broker is down it backs off.
 *
 * Hand-off (ADR 2660): a writer that will publish its events itself once it committed
 * writes their rows `handedOff` (due only `HANDOFF_GRACE_MS` later, and no NOTIFY) and
 * gives the events to `publishCommitted` after the commit. The relay publishes them at
 * once and stamps the rows in one statement; if that fails, or the process dies first,
 * the rows fall due and the relay's drain takes them, as it takes every other row.
 *
 * Schema: `messagingMigrationsDir` (migrate.ts).
 */
import type { ConfirmChannel } from 'amqplib';
import { sql, type DatabasePool } from './db.js';
import { HANDOFF_GRACE_MS, type OutboxHandoff, type OutgoingEvent } from './outbox-writes.js';
import { outsideCallerContext, siteRoutingKey, type AmqpClient } from './amqp.js';
import type { Logger } from './logger.js';
import { withTimeout } from './timeout.js';
import { createWaker } from './waker.js';
import { listenForCommits } from './outbox-listener.js';
import { claimDueRows, orderedScanOnly, pendingAfterRound } from './outbox-rows.js';
import { relaySleepMs, type PendingAfterRound } from './outbox-sleep.js';

/** How long the relay gathers published hand-offs before it stamps their rows in one statement. */
export const HANDOFF_STAMP_DELAY_MS = 100;

export interface OutboxRelayOptions {
  readonly pool: DatabasePool;
  /** For LISTEN: a dedicated connection outside the pool. */
  readonly databaseUrl: string;
  readonly amqp: AmqpClient;
  readonly exchange: string;
  readonly logger: Logger;
  readonly batchSize?: number;
  /** The longest sleep between rounds while the relay cannot count on NOTIFY (ADR 2890). */
  readonly pollIntervalMs?: number;
  /** The longest sleep while it can, when no pending row falls due sooner: at most `HANDOFF_GRACE_MS`. */
  readonly listeningPollIntervalMs?: number;
  /** Published rows older than this are deleted. */
  readonly retentionHours?: number;
  /** How long published hand-offs are gathered before one statement stamps them (`HANDOFF_STAMP_DELAY_MS`). */
  readonly stampDelayMs?: number;
  /** Other channels to LISTEN to on the relay's connection, with what each wakes (ADR 2910). */
  readonly listen?: Readonly<Record<string, () => void>>;
}

export interface OutboxRelay extends OutboxHandoff {
  /** Asks for a drain now (tests, and the NOTIFY listener). */
  wake(): void;
  /** Whether the LISTEN connection is up: notifications arrive, on `outbox` and on `listen`'s channels. */
  listening(): boolean;
  stop(): Promise<void>;
}

/** A round cut short by a stop: what is pending is unknown, so the short interval. */
const PENDING_UNKNOWN: PendingAfterRound = { dueInMs: null, othersDue: true };

/** Relay back-off while the broker is unreachable; a reconnect wakes it at once. */
const backoffMs = (failures: number): number => Math.min(5_000, 100 * 2 ** Math.min(failures, 6));

export const startOutboxRelay = (options: OutboxRelayOptions): OutboxRelay => {
  const { pool, amqp, exchange, logger } = options;
  const batchSize = options.batchSize ?? 100;
  const schedule = {
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    listeningPollIntervalMs: options.listeningPollIntervalMs ?? HANDOFF_GRACE_MS,
  };
  const log = logger.child({ component: 'outbox-relay' });

  let stopped = false;
  let channel: ConfirmChannel | undefined;
  const waker = createWaker();
  let failures = 0;
  let lastCleanup = 0;

  const wake = waker.wake;
  // Whether the LISTEN connection is up; the listener is made once the loop has started.
  let listening = () => false;

  const confirmChannel = async (): Promise<ConfirmChannel> => {
    if (channel !== undefined) return channel;
    if (!amqp.isConnected()) throw new Error('broker not connected');
    const created = await withTimeout(
      amqp.model.createConfirmChannel(),
      2_000,
      'could not open a confirm channel',
    );
    created.on('close', () => {
      if (channel === created) channel = undefined;
    });
    created.on('error', (error: Error) => log.warn({ err: error.message }, 'confirm channel error'));
    channel = created;
    return created;
  };

  const publish = (ch: ConfirmChannel, type: string, id: string, envelope: unknown): void => {
    const site = (envelope as { readonly site_id?: unknown }).site_id;
    ch.publish(exchange, type, Buffer.from(JSON.stringify(envelope)), {
      // Also routed by Site (ADR 2690); the broker strips BCC before delivering.
      ...(typeof site === 'number' || typeof site === 'string' ? { BCC: siteRoutingKey(site, type) } : {}),
      persistent: true,
      messageId: id,
      type,
      contentType: 'application/json',
      timestamp: Math.floor(Date.now() / 1000),
    });
  };

  // Handed-off events wait here while a batch of them is out; each batch is one confirm
  // wait, whatever its size.
  let handed: OutgoingEvent[] = [];
  let handing: Promise<void> | undefined;
  // Published ones are stamped together, at most HANDOFF_STAMP_DELAY_MS after the first:
  // the stamp is bookkeeping that the rows' grace outlasts a hundredfold, so it need not
  // cost a statement per event.
  let unstamped: string[] = [];
  let stampTimer: NodeJS.Timeout | undefined;
  let stamping: Promise<void> | undefined;

  const stamp = async (): Promise<void> => {
    if (stampTimer !== undefined) clearTimeout(stampTimer);
    stampTimer = undefined;
    const ids = unstamped;
    unstamped = [];
    if (ids.length === 0) return;
    await pool
      .query(
        sql.unsafe`
        UPDATE outbox SET published_at = now(), attempts = attempts + 1, last_error = NULL
        WHERE id = ANY(${sql.array(ids, 'uuid')}) AND published_at IS NULL`,
      )
      .catch((error: unknown) =>
        // Published but not stamped: the relay publishes them again when they fall due.
        log.warn({ err: error instanceof Error ? error.message : error }, 'hand-off published, not stamped'),
      );
  };

  const handOnce = async (): Promise<void> => {
    const batch = handed;
    handed = [];
    try {
      const ch = await confirmChannel();
      for (const event of batch) publish(ch, event.type, event.id, event);
      await withTimeout(ch.waitForConfirms(), 5_000, 'broker did not confirm in 5 s');
    } catch (error) {
      // Not published: the rows fall due now and the relay takes them (and backs off
      // while the broker is down). Should this write fail too, they fall due at the end
      // of their grace.
      log.debug({ err: error instanceof Error ? error.message : error }, 'hand-off not published');
      await pool
        .query(
          sql.unsafe`
          UPDATE outbox SET next_attempt_at = now()
          WHERE id = ANY(${sql.array(
            batch.map((e) => e.id),
            'uuid',
          )}) AND published_at IS NULL`,
        )
        .catch(() => undefined);
      wake();
      return;
    }
    unstamped.push(...batch.map((e) => e.id));
    stampTimer ??= setTimeout(() => {
      stamping = stamp().finally(() => {
        stamping = undefined;
      });
    }, options.stampDelayMs ?? HANDOFF_STAMP_DELAY_MS);
  };

  // Runs outside the committing caller's async context (see outsideCallerContext), so the
  // pool's queries here are not taken for that caller's finished transaction.
  const handNext = (): void =>
    outsideCallerContext(() => {
      if (handing !== undefined || handed.length === 0 || stopped) return;
      handing = handOnce().finally(() => {
        handing = undefined;
        handNext();
      });
    });

  const publishCommitted = (events: readonly OutgoingEvent[]): void => {
    if (events.length === 0) return;
    handed.push(...events);
    handNext();
  };

  /**
   * Publishes one batch; answers how many rows it published, or why it could not. A batch
   * short of full ends the round: it also answers what is left pending (ADR 2890).
   */
  const drainOnce = async (): Promise<{ published: number; pending?: PendingAfterRound; error?: Error }> =>
    pool.transaction(async (tx) => {
      await orderedScanOnly(tx);
      const rows = await claimDueRows(tx, batchSize);
      if (rows.length === 0) return { published: 0, pending: await pendingAfterRound(tx) };
      const seqs = sql.array(
        rows.map((r) => r.seq),
        'int8',
      );
      try {
        // The broker calls run outside this transaction's async context (outsideCallerContext).
        await outsideCallerContext(async () => {
          const ch = await confirmChannel();
          for (const row of rows) publish(ch, row.type, row.id, row.envelope);
          await withTimeout(ch.waitForConfirms(), 5_000, 'broker did not confirm in 5 s');
        });
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        // Record the attempt; the rows stay pending and the relay backs off as a whole
        // (the broker, not a row, is what fails).
        await tx.query(sql.unsafe`
          UPDATE outbox SET attempts = attempts + 1, last_error = ${failure.message.slice(0, 500)}
          WHERE seq = ANY(${seqs})`);
        return { published: 0, error: failure };
      }
      await tx.query(sql.unsafe`
        UPDATE outbox SET published_at = now(), attempts = attempts + 1, last_error = NULL
        WHERE seq = ANY(${seqs})`);
      if (rows.length === batchSize) return { published: rows.length };
      return { published: rows.length, pending: await pendingAfterRound(tx) };
    });

  const cleanup = async () => {
    if (Date.now() - lastCleanup < 3_600_000) return;
    lastCleanup = Date.now();
    await pool.query(sql.unsafe`
      DELETE FROM outbox WHERE published_at < now() - make_interval(hours => ${options.retentionHours ?? 168})`);
  };

  const loop = (async () => {
    while (!stopped) {
      waker.settle();
      try {
        let result: Awaited<ReturnType<typeof drainOnce>>;
        do {
          result = await drainOnce();
          if (result.error !== undefined) throw result.error;
        } while (result.pending === undefined && !stopped);
        if (failures > 0) log.info('outbox relay publishing again');
        failures = 0;
        await cleanup();
        await waker.sleep(relaySleepMs(result.pending ?? PENDING_UNKNOWN, listening(), schedule));
      } catch (error) {
        failures++;
        const delay = backoffMs(failures);
        if (failures === 1 || failures % 10 === 0) {
          log.warn(
            { err: error instanceof Error ? error.message : error, retry_in_ms: delay },
            'outbox relay cannot publish',
          );
        }
        waker.settle();
        if (!stopped) await waker.sleep(delay);
      }
    }
  })();
  const listener = listenForCommits({
    databaseUrl: options.databaseUrl,
    log,
    wake,
    ...(options.listen === undefined ? {} : { channels: options.listen }),
  });
  listening = listener.listening;
  amqp.model.on('connect', wake);

  return {
    wake,
    listening: () => listening(),
    publishCommitted,
    stop: async () => {
      stopped = true;
      amqp.model.off('connect', wake);
      waker.wake();
      const listening = listener.stop();
      // Events handed off and not yet out stay in their rows, for the next relay; those
      // out are stamped now.
      await handing;
      await stamping;
      await stamp();
      await loop;
      await listening;
      await channel?.close().catch(() => undefined);
    },
  };
};
