import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import { db, sql, type Queryable } from '@esign/platform/database';
import type { IdempotencyRefusal, IdempotencyStore } from '../../ports/idempotency-store.js';
import { task } from './task.js';

/**
 * Keys are held for the length of the claiming transaction with a transaction-scoped
 * advisory lock: a second call with the same key while the first runs is told so at
 * once (409) instead of queueing, and a crashed call releases its key with its
 * connection. The stored answer is looked up in a statement *after* the lock is taken,
 * so it sees whatever the previous holder committed.
 */
export const postgresIdempotencyStore = (q: Queryable, retentionHours: number): IdempotencyStore => {
  const lockKey = (siteId: number, key: string) => sql.fragment`hashtextextended(${`${siteId}:${key}`}, 0)`;
  return {
    claim:
      (scope, fingerprint): TE.TaskEither<IdempotencyRefusal, O.Option<unknown>> =>
      async () => {
        const { locked } = await db.one(
          q,
          t.type({ locked: t.boolean }),
          sql.unsafe`SELECT pg_try_advisory_xact_lock(${lockKey(scope.siteId, scope.key)}) AS locked`,
        );
        if (!locked) return E.left({ _tag: 'IdempotencyKeyInFlight' });
        const stored = await db.maybeOne(
          q,
          t.type({ fingerprint: t.string, answer: t.unknown }),
          sql.unsafe`
            SELECT fingerprint, answer FROM idempotency_keys
            WHERE site_id = ${scope.siteId} AND key = ${scope.key}
              AND created_at > now() - make_interval(hours => ${retentionHours})`,
        );
        if (stored === undefined) return E.right(O.none);
        if (stored.fingerprint !== fingerprint) return E.left({ _tag: 'IdempotencyKeyReused' });
        return E.right(O.some(stored.answer));
      },
    remember: (scope, fingerprint, answer) =>
      task(async () => {
        await db.exec(
          q,
          sql.unsafe`
            INSERT INTO idempotency_keys (site_id, key, fingerprint, answer, created_at)
            VALUES (${scope.siteId}, ${scope.key}, ${fingerprint}, ${sql.jsonb(answer as never)}, now())
            ON CONFLICT (site_id, key) DO UPDATE
            SET fingerprint = EXCLUDED.fingerprint, answer = EXCLUDED.answer, created_at = EXCLUDED.created_at
            WHERE idempotency_keys.created_at <= now() - make_interval(hours => ${retentionHours})`,
        );
      }),
  };
};
