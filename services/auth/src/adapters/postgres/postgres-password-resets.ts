import * as t from 'io-ts';
import { db, enqueueEvents, sql, type DatabasePool } from '@esign/platform/database';
import type { PasswordResetStore } from '../../ports/password-resets.js';
import { changePasswordIn } from './postgres-account-repository.js';
import { maybe, task } from './rows.js';

const hashOf = (tokenHash: Uint8Array) => sql.binary(Buffer.from(tokenHash));

/** Links to choose a new password in auth's database, their e-mails through its outbox (ADR 3000). */
export const postgresPasswordResets = (pool: DatabasePool): PasswordResetStore => ({
  issue: (reset, event, maxPerHour) =>
    task(async () =>
      pool.transaction(async (tx) => {
        // The user's row, locked: two requests at once count each other.
        await db.exec(tx, sql.unsafe`SELECT 1 FROM users WHERE id = ${reset.userId} FOR UPDATE`);
        const since = new Date(reset.createdAt.getTime() - 3_600_000);
        const recent = await db.one(
          tx,
          t.type({ n: t.number }),
          sql.unsafe`
          SELECT count(*)::int AS n FROM password_resets
          WHERE user_id = ${reset.userId} AND created_at > ${sql.timestamp(since)}`,
        );
        if (recent.n >= maxPerHour) return 'too_many' as const;
        const at = sql.timestamp(reset.createdAt);
        await db.exec(
          tx,
          sql.unsafe`UPDATE password_resets SET ended_at = ${at} WHERE user_id = ${reset.userId} AND ended_at IS NULL`,
        );
        await db.exec(
          tx,
          sql.unsafe`
          INSERT INTO password_resets (id, user_id, token_hash, created_at, expires_at)
          VALUES (${reset.id}, ${reset.userId}, ${hashOf(reset.tokenHash)}, ${at}, ${sql.timestamp(reset.expiresAt)})`,
        );
        await enqueueEvents(tx, [event]);
        return 'issued' as const;
      }),
    ),

  findOpen: (tokenHash, at) =>
    maybe(async () => {
      const row = await db.maybeOne(
        pool,
        t.type({ user_id: t.string, email: t.string }),
        sql.unsafe`
        SELECT r.user_id, u.email FROM password_resets r JOIN users u ON u.id = r.user_id
        WHERE r.token_hash = ${hashOf(tokenHash)} AND r.ended_at IS NULL
          AND r.expires_at > ${sql.timestamp(at)} AND u.disabled_at IS NULL`,
      );
      return row && { userId: row.user_id, email: row.email };
    }),

  redeem: (tokenHash, passwordHash, at, notice) =>
    maybe(async () =>
      pool.transaction(async (tx) => {
        const when = sql.timestamp(at);
        const ended = await db.maybeOne(
          tx,
          t.type({ user_id: t.string }),
          sql.unsafe`
          UPDATE password_resets r SET ended_at = ${when}
          FROM users u
          WHERE r.token_hash = ${hashOf(tokenHash)} AND r.ended_at IS NULL AND r.expires_at > ${when}
            AND u.id = r.user_id AND u.disabled_at IS NULL
          RETURNING r.user_id`,
        );
        return ended === undefined
          ? undefined
          : changePasswordIn(tx, ended.user_id, passwordHash, at, notice);
      }),
    ),
});
