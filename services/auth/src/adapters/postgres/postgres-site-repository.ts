import { isIntegerId, isUuid } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { ForeignKeyIntegrityConstraintViolationError, UniqueIntegrityConstraintViolationError } from 'slonik';
import { db, sql, type DatabasePool } from '@esign/platform/database';
import { notFound } from '../../domain/errors.js';
import type { Site } from '../../domain/model.js';
import type { SiteRepository } from '../../ports/site-repository.js';
import { maybe, task, Timestamp } from './rows.js';

const SiteRow = t.type({
  id: t.number,
  account_id: t.string,
  name: t.string,
  created_at: Timestamp,
  default_locale: t.union([t.string, t.null]),
});
const toSite = (r: t.TypeOf<typeof SiteRow>): Site => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  createdAt: r.created_at,
  defaultLocale: r.default_locale,
});
const siteColumns = sql.fragment`s.id, s.account_id, s.name, s.created_at, s.default_locale`;

const MembershipChange = t.type({
  site_account: t.union([t.string, t.null]),
  user_account: t.union([t.string, t.null]),
  changed: t.boolean,
});

export const postgresSiteRepository = (pool: DatabasePool): SiteRepository => ({
  createSite: (input) => async () => {
    if (!isUuid(input.accountId)) return E.left(notFound('account', input.accountId));
    try {
      return await pool.transaction(async (tx) => {
        if (input.maxPerAccount !== undefined) {
          // The account's row, locked: two Sites made at once count each other.
          await db.exec(tx, sql.unsafe`SELECT 1 FROM accounts WHERE id = ${input.accountId} FOR UPDATE`);
          const held = await db.one(
            tx,
            t.type({ n: t.number }),
            sql.unsafe`SELECT count(*)::int AS n FROM sites WHERE account_id = ${input.accountId}`,
          );
          if (held.n >= input.maxPerAccount)
            return E.left({ _tag: 'TooManySites' as const, max: input.maxPerAccount });
        }
        const row = await db.one(
          tx,
          SiteRow,
          sql.unsafe`
            INSERT INTO sites AS s (account_id, name, created_at)
            VALUES (${input.accountId}, ${input.name}, ${sql.timestamp(input.createdAt)})
            RETURNING ${siteColumns}`,
        );
        if (input.firstMember !== undefined)
          await db.exec(
            tx,
            sql.unsafe`
            INSERT INTO site_members (user_id, site_id, added_at)
            SELECT u.id, ${row.id}, ${sql.timestamp(input.createdAt)} FROM users u
            WHERE u.id = ${input.firstMember} AND u.account_id = ${input.accountId}`,
          );
        return E.right(toSite(row));
      });
    } catch (error) {
      if (error instanceof UniqueIntegrityConstraintViolationError)
        return E.left({ _tag: 'SiteNameTaken', name: input.name });
      if (error instanceof ForeignKeyIntegrityConstraintViolationError)
        return E.left(notFound('account', input.accountId));
      throw error;
    }
  },

  updateSite: (id, change) => async () => {
    if (!isIntegerId(id)) return E.right(O.none);
    const set = [
      sql.fragment`name = ${change.name ?? sql.fragment`s.name`}`,
      ...(change.defaultLocale === undefined ? [] : [sql.fragment`default_locale = ${change.defaultLocale}`]),
    ];
    try {
      const row = await db.maybeOne(
        pool,
        SiteRow,
        sql.unsafe`UPDATE sites s SET ${sql.join(set, sql.fragment`, `)} WHERE s.id = ${id} RETURNING ${siteColumns}`,
      );
      return E.right(O.fromNullable(row && toSite(row)));
    } catch (error) {
      if (error instanceof UniqueIntegrityConstraintViolationError)
        return E.left({ _tag: 'SiteNameTaken', name: change.name ?? '' });
      throw error;
    }
  },

  findSite: (id) =>
    maybe(async () => {
      if (!isIntegerId(id)) return undefined;
      const row = await db.maybeOne(
        pool,
        SiteRow,
        sql.unsafe`SELECT ${siteColumns} FROM sites s WHERE s.id = ${id}`,
      );
      return row && toSite(row);
    }),

  listSites: (filter) =>
    task(async () => {
      if (filter.accountId !== undefined && !isUuid(filter.accountId)) return [];
      const where =
        filter.accountId === undefined
          ? sql.fragment`TRUE`
          : sql.fragment`s.account_id = ${filter.accountId}`;
      return (
        await db.any(
          pool,
          SiteRow,
          sql.unsafe`SELECT ${siteColumns} FROM sites s WHERE ${where} ORDER BY s.id`,
        )
      ).map(toSite);
    }),

  sitesOf: (userId) =>
    task(async () => {
      if (!isUuid(userId)) return [];
      return (
        await db.any(
          pool,
          SiteRow,
          sql.unsafe`
          SELECT ${siteColumns} FROM site_members m JOIN sites s ON s.id = m.site_id
          WHERE m.user_id = ${userId} ORDER BY s.id`,
        )
      ).map(toSite);
    }),

  listMembers: (siteId) =>
    task(async () => {
      if (!isIntegerId(siteId)) return [];
      const rows = await db.any(
        pool,
        t.type({ user_id: t.string, email: t.string, added_at: Timestamp }),
        sql.unsafe`
        SELECT m.user_id, u.email, m.added_at FROM site_members m JOIN users u ON u.id = m.user_id
        WHERE m.site_id = ${siteId} ORDER BY m.added_at, u.email`,
      );
      return rows.map((r) => ({ userId: r.user_id, email: r.email, addedAt: r.added_at }));
    }),

  // One statement: the checks and the insert see the same snapshot.
  addMember: (siteId, userId, at) => async () => {
    if (!isIntegerId(siteId)) return E.left(notFound('site', siteId));
    if (!isUuid(userId)) return E.left(notFound('user', userId));
    const row = await db.one(
      pool,
      MembershipChange,
      sql.unsafe`
        WITH s AS (SELECT id, account_id FROM sites WHERE id = ${siteId}),
             u AS (SELECT id, account_id FROM users WHERE id = ${userId}),
             added AS (
               INSERT INTO site_members (user_id, site_id, added_at)
               SELECT u.id, s.id, ${sql.timestamp(at)} FROM s, u WHERE s.account_id = u.account_id
               ON CONFLICT DO NOTHING
               RETURNING 1)
        SELECT (SELECT account_id::text FROM s) AS site_account,
               (SELECT account_id::text FROM u) AS user_account,
               EXISTS (SELECT 1 FROM added) AS changed`,
    );
    if (row.site_account === null) return E.left(notFound('site', siteId));
    if (row.user_account === null) return E.left(notFound('user', userId));
    if (row.site_account !== row.user_account) return E.left({ _tag: 'DifferentAccounts', siteId, userId });
    return E.right({ added: row.changed });
  },

  removeMember: (siteId, userId) => async () => {
    if (!isIntegerId(siteId)) return E.left(notFound('site', siteId));
    if (!isUuid(userId)) return E.left(notFound('user', userId));
    const row = await db.one(
      pool,
      MembershipChange,
      sql.unsafe`
        WITH removed AS (
          DELETE FROM site_members WHERE site_id = ${siteId} AND user_id = ${userId} RETURNING 1)
        SELECT (SELECT account_id::text FROM sites WHERE id = ${siteId}) AS site_account,
               (SELECT account_id::text FROM users WHERE id = ${userId}) AS user_account,
               EXISTS (SELECT 1 FROM removed) AS changed`,
    );
    if (row.site_account === null) return E.left(notFound('site', siteId));
    if (row.user_account === null) return E.left(notFound('user', userId));
    return E.right({ removed: row.changed });
  },
});
