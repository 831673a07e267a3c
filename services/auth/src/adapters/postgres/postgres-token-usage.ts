import type { Logger } from '@esign/platform';
import { db, sql, type DatabasePool } from '@esign/platform/database';
import type { TokenUsageRecorder } from '../../ports/token-repository.js';

export interface BufferedUsageRecorder extends TokenUsageRecorder {
  /** Writes what is buffered; the timer calls it, shutdown and tests call it too. */
  readonly flush: () => Promise<void>;
  readonly stop: () => Promise<void>;
}

/**
 * "Last used" without a write per introspection: uses are kept in memory (the latest per
 * token) and written in one statement every `intervalMs`, and a row is only rewritten
 * when its stored time is over a minute old, so several replicas do not multiply writes.
 * The price: `last_used_at` is accurate to about a minute.
 */
export const postgresTokenUsage = (
  pool: DatabasePool,
  logger: Logger,
  options: { readonly intervalMs?: number; readonly maxBuffered?: number } = {},
): BufferedUsageRecorder => {
  let pending = new Map<string, Date>();
  let flushing: Promise<void> = Promise.resolve();
  const maxBuffered = options.maxBuffered ?? 10_000;

  const write = async (batch: Map<string, Date>) => {
    if (batch.size === 0) return;
    const ids = [...batch.keys()];
    const ats = ids.map((id) => batch.get(id)!.toISOString());
    await db.exec(
      pool,
      sql.unsafe`
        UPDATE access_tokens t SET last_used_at = v.at
        FROM unnest(${sql.array(ids, 'uuid')}, ${sql.array(ats, 'timestamptz')}) AS v(id, at)
        WHERE t.id = v.id AND (t.last_used_at IS NULL OR t.last_used_at < v.at - interval '1 minute')`,
    );
  };

  const flush = (): Promise<void> => {
    const batch = pending;
    pending = new Map();
    flushing = flushing.then(() =>
      write(batch).catch((error: unknown) => logger.warn({ err: error }, 'could not record token use')),
    );
    return flushing;
  };

  const timer = setInterval(() => void flush(), options.intervalMs ?? 30_000);
  timer.unref();

  return {
    record: (tokenId, at) => {
      const seen = pending.get(tokenId);
      if (seen === undefined || seen.getTime() < at.getTime()) pending.set(tokenId, at);
      if (pending.size >= maxBuffered) void flush();
    },
    flush,
    stop: async () => {
      clearInterval(timer);
      await flush();
    },
  };
};
