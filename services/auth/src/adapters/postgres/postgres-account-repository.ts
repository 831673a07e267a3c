import { isUuid, type PasswordChangedNotice } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { ForeignKeyIntegrityConstraintViolationError, UniqueIntegrityConstraintViolationError } from 'slonik';
import { db, enqueueEvents, sql, type DatabasePool, type Queryable } from '@esign/platform/database';
import { notFound } from '../../domain/errors.js';
import type { Account } from '../../domain/model.js';
import type { AccountRepository, PasswordChanged } from '../../ports/account-repository.js';
import { maybe, task, Timestamp } from './rows.js';
import { lockAccountUsers, toUser, userColumns, UserRow } from './user-rows.js';

const AccountRow = t.type({ id: t.string, name: t.string, api_access: t.boolean, created_at: Timestamp });
const toAccount = (r: t.TypeOf<typeof AccountRow>): Account => ({
  id: r.id,
  name: r.name,
  apiAccess: r.api_access,
  createdAt: r.created_at,
});

const CredentialsRow = t.intersection([UserRow, t.type({ password_hash: t.string, api_access: t.boolean })]);

const count = t.type({ n: t.number });

/**
 * A new password hash and, in the caller's transaction, the end of everything the old
 * password let anyone make (ADR 1311): sessions, access tokens, the refresh tokens of
 * authorised apps, client secrets, and open links to choose a new password (ADR 3000);
 * and `notice` in the outbox, so the user is told (ADR 3020).
 */
export const changePasswordIn = async (
  tx: Queryable,
  userId: string,
  passwordHash: string,
  at: Date,
  notice: PasswordChangedNotice,
): Promise<PasswordChanged> => {
  const when = sql.timestamp(at);
  await db.exec(
    tx,
    sql.unsafe`UPDATE users SET password_hash = ${passwordHash}, password_changed_at = ${when} WHERE id = ${userId}`,
  );
  const sessions = await db.one(
    tx,
    count,
    sql.unsafe`
    WITH ended AS (
      UPDATE sessions SET revoked_at = ${when} WHERE user_id = ${userId} AND revoked_at IS NULL RETURNING 1)
    SELECT count(*)::int AS n FROM ended`,
  );
  const tokens = await db.one(
    tx,
    count,
    sql.unsafe`
    WITH revoked AS (
      UPDATE access_tokens SET revoked_at = ${when}
      WHERE user_id = ${userId} AND revoked_at IS NULL RETURNING 1)
    SELECT count(*)::int AS n FROM revoked`,
  );
  // Apps the user authorised lose their refresh tokens too (their access tokens are above).
  await db.exec(
    tx,
    sql.unsafe`UPDATE oauth_grants SET revoked_at = ${when} WHERE user_id = ${userId} AND revoked_at IS NULL`,
  );
  await db.exec(
    tx,
    sql.unsafe`UPDATE password_resets SET ended_at = ${when} WHERE user_id = ${userId} AND ended_at IS NULL`,
  );
  const secrets = await db.one(
    tx,
    count,
    sql.unsafe`
    WITH removed AS (
      UPDATE developer_apps SET client_secret_hash = NULL, client_secret_created_at = NULL
      WHERE user_id = ${userId} AND client_secret_hash IS NOT NULL RETURNING 1)
    SELECT count(*)::int AS n FROM removed`,
  );
  await enqueueEvents(tx, [notice]);
  return { sessionsEnded: sessions.n, tokensRevoked: tokens.n, clientSecretsRemoved: secrets.n };
};

export const postgresAccountRepository = (pool: DatabasePool): AccountRepository => ({
  createAccount: (account) =>
    task(async () =>
      toAccount(
        await db.one(
          pool,
          AccountRow,
          sql.unsafe`
          INSERT INTO accounts (id, name, api_access, created_at)
          VALUES (${account.id}, ${account.name}, ${account.apiAccess}, ${sql.timestamp(account.createdAt)})
          RETURNING id, name, api_access, created_at`,
        ),
      ),
    ),

  findAccount: (id) =>
    maybe(async () => {
      if (!isUuid(id)) return undefined;
      const row = await db.maybeOne(
        pool,
        AccountRow,
        sql.unsafe`SELECT id, name, api_access, created_at FROM accounts WHERE id = ${id}`,
      );
      return row && toAccount(row);
    }),

  listAccounts: () =>
    task(async () =>
      (
        await db.any(
          pool,
          AccountRow,
          sql.unsafe`SELECT id, name, api_access, created_at FROM accounts ORDER BY created_at, id`,
        )
      ).map(toAccount),
    ),

  renameAccount: (id, name) =>
    maybe(async () => {
      if (!isUuid(id)) return undefined;
      const row = await db.maybeOne(
        pool,
        AccountRow,
        sql.unsafe`UPDATE accounts SET name = ${name} WHERE id = ${id} RETURNING id, name, api_access, created_at`,
      );
      return row && toAccount(row);
    }),

  setApiAccess: (id, enabled, tell) => async () => {
    if (!isUuid(id)) return E.left(notFound('account', id));
    return pool.transaction(async (tx) => {
      const locked = await lockAccountUsers(tx, id);
      if (locked === undefined) return E.left(notFound('account', id));
      if (locked.apiAccess !== enabled) await enqueueEvents(tx, tell(locked));
      const row = await db.one(
        tx,
        AccountRow,
        sql.unsafe`
        UPDATE accounts SET api_access = ${enabled} WHERE id = ${id}
        RETURNING id, name, api_access, created_at`,
      );
      return E.right(toAccount(row));
    });
  },

  createUser: (user, passwordHash) => async () => {
    if (!isUuid(user.accountId)) return E.left(notFound('account', user.accountId));
    try {
      const row = await db.one(
        pool,
        UserRow,
        sql.unsafe`
          INSERT INTO users (id, account_id, email, password_hash, password_changed_at, created_at, account_admin)
          VALUES (${user.id}, ${user.accountId}, ${user.email}, ${passwordHash},
                  ${sql.timestamp(user.createdAt)}, ${sql.timestamp(user.createdAt)},
                  -- The account's first user administers it (ADR 1401).
                  NOT EXISTS (SELECT 1 FROM users WHERE account_id = ${user.accountId}))
          RETURNING id, account_id, email, disabled_at, created_at, account_admin`,
      );
      return E.right(toUser(row));
    } catch (error) {
      if (error instanceof UniqueIntegrityConstraintViolationError)
        return E.left({ _tag: 'EmailTaken', email: user.email });
      if (error instanceof ForeignKeyIntegrityConstraintViolationError)
        return E.left(notFound('account', user.accountId));
      throw error;
    }
  },

  findUser: (id) =>
    maybe(async () => {
      if (!isUuid(id)) return undefined;
      const row = await db.maybeOne(
        pool,
        UserRow,
        sql.unsafe`SELECT ${userColumns} FROM users u WHERE u.id = ${id}`,
      );
      return row && toUser(row);
    }),

  findUserByEmail: (email) =>
    maybe(async () => {
      const row = await db.maybeOne(
        pool,
        UserRow,
        sql.unsafe`SELECT ${userColumns} FROM users u WHERE u.email = ${email.toLowerCase()}`,
      );
      return row && toUser(row);
    }),

  findCredentials: (email) =>
    maybe(async () => {
      const row = await db.maybeOne(
        pool,
        CredentialsRow,
        sql.unsafe`
        SELECT ${userColumns}, u.password_hash, a.api_access
        FROM users u JOIN accounts a ON a.id = u.account_id
        WHERE u.email = ${email.toLowerCase()}`,
      );
      return row && { ...toUser(row), passwordHash: row.password_hash, apiAccess: row.api_access };
    }),

  listUsers: (filter) =>
    task(async () => {
      if (filter.accountId !== undefined && !isUuid(filter.accountId)) return [];
      const where =
        filter.accountId === undefined
          ? sql.fragment`TRUE`
          : sql.fragment`u.account_id = ${filter.accountId}`;
      return (
        await db.any(
          pool,
          UserRow,
          sql.unsafe`SELECT ${userColumns} FROM users u WHERE ${where} ORDER BY u.created_at, u.id`,
        )
      ).map(toUser);
    }),

  setPasswordHash: (userId, passwordHash, at) =>
    task(async () => {
      await db.exec(
        pool,
        sql.unsafe`
        UPDATE users SET password_hash = ${passwordHash}, password_changed_at = ${sql.timestamp(at)}
        WHERE id = ${userId}`,
      );
    }),

  changePassword: (userId, passwordHash, at, notice) =>
    task(async () => pool.transaction((tx) => changePasswordIn(tx, userId, passwordHash, at, notice))),

  changeAccountUser: (accountId, userId, decide) => async () => {
    if (!isUuid(userId)) return E.left(notFound('user', userId));
    return pool.transaction(async (tx) => {
      // Every change to the account's users waits for the one before it, so two admins
      // demoting or disabling each other at once cannot leave the account without one.
      const locked = await lockAccountUsers(tx, accountId);
      const decided = decide({ accountName: locked?.accountName ?? '', users: locked?.users ?? [] });
      if (E.isLeft(decided)) return decided;
      const next = decided.right.user;
      if (decided.right.notices.length > 0) await enqueueEvents(tx, decided.right.notices);
      const row = await db.one(
        tx,
        UserRow,
        sql.unsafe`
        UPDATE users u
        SET disabled_at = ${next.disabledAt === null ? null : sql.timestamp(next.disabledAt)},
            account_admin = ${next.accountAdmin}
        WHERE u.id = ${next.id} AND u.account_id = ${accountId}
        RETURNING ${userColumns}`,
      );
      return E.right(toUser(row));
    });
  },
});
