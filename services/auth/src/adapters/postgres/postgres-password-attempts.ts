import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { db, sql, type DatabasePool } from '@esign/platform/database';
import type { PasswordAttempts } from '../../ports/password-attempts.js';
import { NullableTimestamp, task, Timestamp } from './rows.js';

const AttemptRow = t.type({
  attempts: t.number,
  last_attempt_at: Timestamp,
  blocked_until: NullableTimestamp,
});

/**
 * Attempt counts in Postgres, so every replica sees the same count. The row is locked
 * while an attempt is decided: concurrent guesses queue on it and each sees the count
 * the previous one left.
 */
export const postgresPasswordAttempts = (pool: DatabasePool): PasswordAttempts => ({
  register: (key, decide) => async () =>
    pool.transaction(async (tx) => {
      // Make sure a row exists to lock, without counting anything yet.
      await db.exec(
        tx,
        sql.unsafe`
          INSERT INTO password_attempts (key, attempts, last_attempt_at) VALUES (${key}, 1, 'epoch')
          ON CONFLICT (key) DO NOTHING`,
      );
      const row = await db.one(
        tx,
        AttemptRow,
        sql.unsafe`SELECT attempts, last_attempt_at, blocked_until FROM password_attempts WHERE key = ${key} FOR UPDATE`,
      );
      // The placeholder's epoch time reads as "quiet for ages": a fresh count.
      const decision = decide({
        attempts: row.attempts,
        lastAttemptAt: row.last_attempt_at,
        blockedUntil: row.blocked_until,
      });
      if (E.isRight(decision)) {
        const next = decision.right;
        await db.exec(
          tx,
          sql.unsafe`
            UPDATE password_attempts
            SET attempts = ${next.attempts}, last_attempt_at = ${sql.timestamp(next.lastAttemptAt)},
                blocked_until = ${next.blockedUntil === null ? null : sql.timestamp(next.blockedUntil)}
            WHERE key = ${key}`,
        );
      }
      return decision;
    }),

  clear: (key) =>
    task(async () => {
      await db.exec(pool, sql.unsafe`DELETE FROM password_attempts WHERE key = ${key}`);
    }),
});
