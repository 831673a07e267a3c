import * as t from 'io-ts';
import { isUuid } from '@esign/contracts';
import { db, sql, type DatabasePool } from '@esign/platform/database';
import type { OAuthGrant } from '../../domain/oauth.js';
import type { OAuthRepository } from '../../ports/oauth-repository.js';
import { insertToken } from './postgres-token-repository.js';
import { maybe, NullableTimestamp, offsetOf, task, Timestamp } from './rows.js';

const GrantColumns = {
  grant_id: t.string,
  app_id: t.string,
  user_id: t.string,
  site_ids: t.array(t.number),
  grant_created_at: Timestamp,
  grant_revoked_at: NullableTimestamp,
};
const grantColumns = sql.fragment`
  g.id AS grant_id, g.app_id, g.user_id, g.site_ids, g.created_at AS grant_created_at,
  g.revoked_at AS grant_revoked_at`;
const toGrant = (r: t.TypeOf<t.TypeC<typeof GrantColumns>>): OAuthGrant => ({
  id: r.grant_id,
  appId: r.app_id,
  userId: r.user_id,
  siteIds: r.site_ids,
  createdAt: r.grant_created_at,
  revokedAt: r.grant_revoked_at,
});

const CodeRow = t.type({
  ...GrantColumns,
  redirect_uri: t.string,
  code_challenge: t.string,
  expires_at: Timestamp,
  used_at: NullableTimestamp,
});
const RefreshRow = t.type({ ...GrantColumns, expires_at: Timestamp, used_at: NullableTimestamp });
const AuthorizationRow = t.type({
  app_id: t.string,
  app_name: t.string,
  owner_account_name: t.string,
  site_ids: t.array(t.number),
  authorized_at: Timestamp,
});

const bytes = (b: Uint8Array) => sql.binary(Buffer.from(b));

export const postgresOAuthRepository = (pool: DatabasePool): OAuthRepository => ({
  createGrant: (grant, code) =>
    task(async () => {
      await pool.transaction(async (tx) => {
        await db.exec(
          tx,
          sql.unsafe`
          INSERT INTO oauth_grants (id, app_id, user_id, site_ids, created_at)
          VALUES (${grant.id}, ${grant.appId}, ${grant.userId}, ${sql.array([...grant.siteIds], 'int4')},
                  ${sql.timestamp(grant.createdAt)})`,
        );
        await db.exec(
          tx,
          sql.unsafe`
          INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, created_at, expires_at)
          VALUES (${bytes(code.fingerprint)}, ${grant.id}, ${code.redirectUri}, ${code.codeChallenge},
                  ${sql.timestamp(grant.createdAt)}, ${sql.timestamp(code.expiresAt)})`,
        );
      });
    }),

  findCode: (fingerprint) =>
    maybe(async () => {
      const row = await db.maybeOne(
        pool,
        CodeRow,
        sql.unsafe`
        SELECT ${grantColumns}, c.redirect_uri, c.code_challenge, c.expires_at, c.used_at
        FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id
        WHERE c.code_hash = ${bytes(fingerprint)}`,
      );
      return (
        row && {
          grant: toGrant(row),
          redirectUri: row.redirect_uri,
          codeChallenge: row.code_challenge,
          expiresAt: row.expires_at,
          usedAt: row.used_at,
        }
      );
    }),

  findRefreshToken: (fingerprint) =>
    maybe(async () => {
      const row = await db.maybeOne(
        pool,
        RefreshRow,
        sql.unsafe`
        SELECT ${grantColumns}, r.expires_at, r.used_at
        FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id
        WHERE r.token_hash = ${bytes(fingerprint)}`,
      );
      return row && { grant: toGrant(row), expiresAt: row.expires_at, usedAt: row.used_at };
    }),

  redeem: (kind, fingerprint, at, issued) =>
    task(async () =>
      pool.transaction(async (tx) => {
        // The conditional UPDATE is the single-use guarantee: of two racing exchanges, one wins.
        const consumed =
          kind === 'code'
            ? await db.maybeOne(
                tx,
                t.type({ grant_id: t.string }),
                sql.unsafe`
                UPDATE oauth_codes SET used_at = ${sql.timestamp(at)}
                WHERE code_hash = ${bytes(fingerprint)} AND used_at IS NULL RETURNING grant_id`,
              )
            : await db.maybeOne(
                tx,
                t.type({ grant_id: t.string }),
                sql.unsafe`
                UPDATE oauth_refresh_tokens SET used_at = ${sql.timestamp(at)}
                WHERE token_hash = ${bytes(fingerprint)} AND used_at IS NULL RETURNING grant_id`,
              );
        if (consumed === null) return false;
        await db.exec(tx, insertToken(issued.access, issued.grantId));
        await db.exec(
          tx,
          sql.unsafe`
          INSERT INTO oauth_refresh_tokens (token_hash, grant_id, created_at, expires_at)
          VALUES (${bytes(issued.refresh.fingerprint)}, ${issued.grantId},
                  ${sql.timestamp(issued.refresh.createdAt)}, ${sql.timestamp(issued.refresh.expiresAt)})`,
        );
        return true;
      }),
    ),

  revokeGrant: (grantId, at) =>
    task(async () => {
      await pool.transaction(async (tx) => {
        await db.exec(
          tx,
          sql.unsafe`UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, ${sql.timestamp(at)}) WHERE id = ${grantId}`,
        );
        await db.exec(
          tx,
          sql.unsafe`
          UPDATE access_tokens SET revoked_at = ${sql.timestamp(at)}
          WHERE grant_id = ${grantId} AND revoked_at IS NULL`,
        );
      });
    }),

  revokeApp: (userId, appId, at) =>
    task(async () => {
      if (!isUuid(appId)) return 0;
      return pool.transaction(async (tx) => {
        const revoked = await db.any(
          tx,
          t.type({ id: t.string }),
          sql.unsafe`
          UPDATE oauth_grants SET revoked_at = ${sql.timestamp(at)}
          WHERE user_id = ${userId} AND app_id = ${appId} AND revoked_at IS NULL RETURNING id`,
        );
        await db.exec(
          tx,
          sql.unsafe`
          UPDATE access_tokens SET revoked_at = ${sql.timestamp(at)}
          WHERE user_id = ${userId} AND app_id = ${appId} AND grant_id IS NOT NULL AND revoked_at IS NULL`,
        );
        return revoked.length;
      });
    }),

  listAuthorizations: (userId, now, page) =>
    task(async () => {
      const live = sql.fragment`
      g.user_id = ${userId} AND g.revoked_at IS NULL AND a.deleted_at IS NULL AND (
        EXISTS (SELECT 1 FROM oauth_refresh_tokens r
                WHERE r.grant_id = g.id AND r.used_at IS NULL AND r.expires_at > ${sql.timestamp(now)})
        OR EXISTS (SELECT 1 FROM oauth_codes c
                   WHERE c.grant_id = g.id AND c.used_at IS NULL AND c.expires_at > ${sql.timestamp(now)}))`;
      const [rows, count] = await Promise.all([
        db.any(
          pool,
          AuthorizationRow,
          sql.unsafe`
          SELECT a.id AS app_id, a.name AS app_name, acc.name AS owner_account_name,
                 (SELECT array_agg(DISTINCT s ORDER BY s) FROM oauth_grants g2, unnest(g2.site_ids) s
                  WHERE g2.user_id = ${userId} AND g2.app_id = a.id AND g2.revoked_at IS NULL) AS site_ids,
                 max(g.created_at) AS authorized_at
          FROM oauth_grants g
          JOIN developer_apps a ON a.id = g.app_id
          JOIN users owner ON owner.id = a.user_id
          JOIN accounts acc ON acc.id = owner.account_id
          WHERE ${live}
          GROUP BY a.id, a.name, acc.name
          ORDER BY max(g.created_at) DESC, a.id
          LIMIT ${page.perPage} OFFSET ${offsetOf(page)}`,
        ),
        db.one(
          pool,
          t.type({ n: t.number }),
          sql.unsafe`
          SELECT count(DISTINCT g.app_id) AS n FROM oauth_grants g
          JOIN developer_apps a ON a.id = g.app_id WHERE ${live}`,
        ),
      ]);
      return {
        items: rows.map((r) => ({
          appId: r.app_id,
          appName: r.app_name,
          ownerAccountName: r.owner_account_name,
          siteIds: r.site_ids,
          authorizedAt: r.authorized_at,
        })),
        total: count.n,
      };
    }),
});
