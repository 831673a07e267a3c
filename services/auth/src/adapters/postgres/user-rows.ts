import * as t from 'io-ts';
import { db, sql, type Queryable } from '@esign/platform/database';
import type { User } from '../../domain/model.js';
import { NullableTimestamp, Timestamp } from './rows.js';

export const UserRow = t.type({
  id: t.string,
  account_id: t.string,
  email: t.string,
  disabled_at: NullableTimestamp,
  created_at: Timestamp,
  account_admin: t.boolean,
});
export const toUser = (r: t.TypeOf<typeof UserRow>): User => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
  accountAdmin: r.account_admin,
});

export const userColumns = sql.fragment`u.id, u.account_id, u.email, u.disabled_at, u.created_at, u.account_admin`;

/**
 * Locks the account's row and reads every user of it, inside `tx`. Every change to who is
 * an enabled admin of an account takes this lock first, so such changes are decided one
 * after the other, each from the users as the one before left them (ADR 3060, ADR 3090).
 */
export const lockAccountUsers = async (
  tx: Queryable,
  accountId: string,
): Promise<
  { readonly accountName: string; readonly apiAccess: boolean; readonly users: readonly User[] } | undefined
> => {
  const account = await db.maybeOne(
    tx,
    t.type({ name: t.string, api_access: t.boolean }),
    sql.unsafe`SELECT name, api_access FROM accounts WHERE id = ${accountId} FOR UPDATE`,
  );
  if (account === undefined) return undefined;
  const rows = await db.any(
    tx,
    UserRow,
    sql.unsafe`SELECT ${userColumns} FROM users u WHERE u.account_id = ${accountId}`,
  );
  return { accountName: account.name, apiAccess: account.api_access, users: rows.map(toUser) };
};
