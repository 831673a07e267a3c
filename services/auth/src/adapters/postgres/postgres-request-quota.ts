import * as t from 'io-ts';
import { db, sql, type DatabasePool } from '@esign/platform/database';
import type { RequestQuota } from '../../ports/request-quota.js';
import { maybe } from './rows.js';

/**
 * Fixed-window counters in Postgres (every replica counts in the same rows), one statement
 * per call: each key's row for the current window is created or incremented atomically.
 */
export const postgresRequestQuota = (pool: DatabasePool): RequestQuota => ({
  take: (limits, windowSeconds, now) =>
    maybe(async () => {
      if (limits.length === 0) return undefined;
      const windowMs = windowSeconds * 1000;
      const start = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
      const rows = await db.any(
        pool,
        t.type({ key: t.string, hits: t.number }),
        sql.unsafe`
        INSERT INTO request_quota (key, window_start, hits)
        SELECT key, ${sql.timestamp(start)}, 1 FROM unnest(${sql.array(
          limits.map((l) => l.key),
          'text',
        )}::text[]) AS key
        ON CONFLICT (key, window_start) DO UPDATE SET hits = request_quota.hits + 1
        RETURNING key, hits`,
      );
      const over = rows.some((row) => row.hits > (limits.find((l) => l.key === row.key)?.max ?? Infinity));
      return over ? Math.max(1, Math.ceil((start.getTime() + windowMs - now.getTime()) / 1000)) : undefined;
    }),
});
