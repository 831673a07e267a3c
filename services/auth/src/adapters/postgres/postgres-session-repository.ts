import * as t from 'io-ts';
import { db, sql, type DatabasePool } from '@esign/platform/database';
import type { SessionRepository } from '../../ports/session-repository.js';
import { isUuid } from '@esign/contracts';
import { maybe, NullableTimestamp, task, Timestamp } from './rows.js';
import { memberSitesOf, subjectColumns, toSubject } from './subject-rows.js';

const SessionRow = t.type({
  id: t.string,
  user_id: t.string,
  account_id: t.string,
  email: t.string,
  expires_at: Timestamp,
  revoked_at: NullableTimestamp,
  user_disabled: t.boolean,
  api_access: t.boolean,
  account_admin: t.boolean,
  last_active_at: NullableTimestamp,
});

const SubjectRow = t.type({ ...subjectColumns, last_active_at: NullableTimestamp });

const SummaryRow = t.type({
  id: t.string,
  created_at: Timestamp,
  expires_at: Timestamp,
  client_address: t.union([t.string, t.null]),
  user_agent: t.union([t.string, t.null]),
  last_active_at: NullableTimestamp,
});

export const postgresSessionRepository = (pool: DatabasePool): SessionRepository => ({
  create: (session) =>
    task(async () => {
      await db.exec(
        pool,
        sql.unsafe`
        INSERT INTO sessions (id, user_id, secret_hash, created_at, expires_at, client_address, user_agent,
                              last_active_at)
        VALUES (${session.id}, ${session.userId}, ${sql.binary(Buffer.from(session.fingerprint))},
                ${sql.timestamp(session.createdAt)}, ${sql.timestamp(session.expiresAt)},
                ${session.clientAddress}, ${session.userAgent}, ${sql.timestamp(session.createdAt)})`,
      );
    }),

  findByFingerprint: (fingerprint) =>
    maybe(async () => {
      const row = await db.maybeOne(
        pool,
        SessionRow,
        sql.unsafe`
        SELECT s.id, s.user_id, u.account_id, u.email, s.expires_at, s.revoked_at,
               u.disabled_at IS NOT NULL AS user_disabled, a.api_access, u.account_admin, s.last_active_at
        FROM sessions s JOIN users u ON u.id = s.user_id JOIN accounts a ON a.id = u.account_id
        WHERE s.secret_hash = ${sql.binary(Buffer.from(fingerprint))}`,
      );
      return (
        row && {
          id: row.id,
          userId: row.user_id,
          accountId: row.account_id,
          email: row.email,
          expiresAt: row.expires_at,
          revokedAt: row.revoked_at,
          userDisabled: row.user_disabled,
          apiAccess: row.api_access,
          accountAdmin: row.account_admin,
          lastActiveAt: row.last_active_at,
        }
      );
    }),

  introspectionSubject: (id, kid) =>
    maybe(async () => {
      if (!isUuid(id)) return undefined;
      // A kid that names no key counts as withdrawn: the token cannot have been ours.
      const row = await db.maybeOne(
        pool,
        SubjectRow,
        sql.unsafe`
        SELECT s.id, s.user_id, s.expires_at, s.revoked_at, s.last_active_at,
               u.email AS user_email, u.disabled_at IS NOT NULL AS user_disabled, a.api_access,
               COALESCE((SELECT k.revoked_at IS NOT NULL FROM signing_keys k WHERE k.kid = ${kid}), true)
                 AS key_revoked,
               ${memberSitesOf('s')}
        FROM sessions s JOIN users u ON u.id = s.user_id JOIN accounts a ON a.id = u.account_id
        WHERE s.id = ${id}`,
      );
      return row && { ...toSubject(row, false), lastActiveAt: row.last_active_at };
    }),

  recordActivity: (id, at, everySeconds) =>
    task(async () => {
      // The guard, not the caller's look beforehand, holds when uses on two replicas meet.
      const written = await db.exec(
        pool,
        sql.unsafe`
        UPDATE sessions SET last_active_at = ${sql.timestamp(at)}
        WHERE id = ${id}
          AND (last_active_at IS NULL
               OR last_active_at < ${sql.timestamp(at)}::timestamptz - make_interval(secs => ${everySeconds}))`,
      );
      return written > 0;
    }),

  revoke: (id, at) =>
    task(async () => {
      await db.exec(
        pool,
        sql.unsafe`UPDATE sessions SET revoked_at = ${sql.timestamp(at)} WHERE id = ${id} AND revoked_at IS NULL`,
      );
    }),

  revokeAllOf: (userId, at) =>
    task(async () => {
      await db.exec(
        pool,
        sql.unsafe`UPDATE sessions SET revoked_at = ${sql.timestamp(at)} WHERE user_id = ${userId} AND revoked_at IS NULL`,
      );
    }),

  listLive: (userId, at) =>
    task(async () => {
      const rows = await db.any(
        pool,
        SummaryRow,
        sql.unsafe`
        SELECT id, created_at, expires_at, client_address, user_agent, last_active_at FROM sessions
        WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${sql.timestamp(at)}
        ORDER BY created_at DESC, id`,
      );
      return rows.map((row) => ({
        id: row.id,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        clientAddress: row.client_address,
        userAgent: row.user_agent,
        lastActiveAt: row.last_active_at,
      }));
    }),

  endOwn: (userId, id, at) =>
    task(async () => {
      if (!isUuid(id)) return 'unknown' as const;
      const row = await db.maybeOne(
        pool,
        t.type({ id: t.string }),
        sql.unsafe`
        UPDATE sessions SET revoked_at = COALESCE(revoked_at, ${sql.timestamp(at)})
        WHERE id = ${id} AND user_id = ${userId}
        RETURNING id`,
      );
      return row === undefined ? ('unknown' as const) : ('ended' as const);
    }),

  endOthers: (userId, keepId, at) =>
    task(async () =>
      db.exec(
        pool,
        sql.unsafe`
        UPDATE sessions SET revoked_at = ${sql.timestamp(at)}
        WHERE user_id = ${userId} AND id <> ${keepId} AND revoked_at IS NULL AND expires_at > ${sql.timestamp(at)}`,
      ),
    ),
});
