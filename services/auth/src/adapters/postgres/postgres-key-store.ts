import * as t from 'io-ts';
import { PublicJwk } from '@esign/contracts';
import { db, enqueueEvents, sql, type DatabasePool } from '@esign/platform/database';
import type { KeyStore, SealedKey } from '../../ports/signing-keys.js';
import { Bytes, NullableTimestamp, task, Timestamp } from './rows.js';

const KeyRow = t.type({
  kid: t.string,
  public_jwk: PublicJwk,
  created_at: Timestamp,
  activates_at: Timestamp,
  revoked_at: NullableTimestamp,
  last_token_expires_at: NullableTimestamp,
});

export const postgresKeyStore = (
  pool: DatabasePool,
): KeyStore & { loadSealedKey: (kid: string) => Promise<SealedKey | undefined> } => ({
  list: () =>
    task(async () => {
      const rows = await db.any(
        pool,
        KeyRow,
        sql.unsafe`
        SELECT k.kid, k.public_jwk, k.created_at, k.activates_at, k.revoked_at,
               (SELECT max(t.expires_at) FROM access_tokens t
                WHERE t.kid = k.kid AND t.revoked_at IS NULL) AS last_token_expires_at
        FROM signing_keys k
        ORDER BY k.activates_at DESC, k.created_at DESC`,
      );
      return rows.map((r) => ({
        kid: r.kid,
        publicJwk: r.public_jwk,
        createdAt: r.created_at,
        activatesAt: r.activates_at,
        revokedAt: r.revoked_at,
        lastTokenExpiresAt: r.last_token_expires_at,
      }));
    }),

  insert: (key, createdAt, activatesAt) =>
    task(async () => {
      await db.exec(
        pool,
        sql.unsafe`
        INSERT INTO signing_keys (kid, public_jwk, encryption_key_id, sealed_private_key, created_at, activates_at)
        VALUES (${key.kid}, ${sql.jsonb(key.publicJwk)}, ${key.encryptionKeyId},
                ${sql.binary(Buffer.from(key.sealedPrivateKey))}, ${sql.timestamp(createdAt)}, ${sql.timestamp(activatesAt)})`,
      );
    }),

  revoke: (kids, at, tell) =>
    task(async () => {
      if (kids.length === 0) return;
      await pool.transaction(async (tx) => {
        const withdrawn = await db.any(
          tx,
          t.type({ kid: t.string }),
          sql.unsafe`
          UPDATE signing_keys SET revoked_at = ${sql.timestamp(at)}
          WHERE kid = ANY(${sql.array([...kids], 'text')}) AND revoked_at IS NULL
          RETURNING kid`,
        );
        if (withdrawn.length === 0) return;
        // Tokens of a signed-in session are not stored here: the web application makes another.
        const holders = await db.any(
          tx,
          t.type({ user_id: t.string, email: t.string, tokens: t.number }),
          sql.unsafe`
          SELECT u.id AS user_id, u.email, count(*)::int AS tokens
          FROM access_tokens tk JOIN users u ON u.id = tk.user_id
          WHERE tk.kid = ANY(${sql.array(
            withdrawn.map((w) => w.kid),
            'text',
          )}) AND tk.revoked_at IS NULL AND tk.expires_at > ${sql.timestamp(at)} AND u.disabled_at IS NULL
          GROUP BY u.id, u.email
          ORDER BY u.email`,
        );
        const notices = tell(holders.map((h) => ({ userId: h.user_id, email: h.email, tokens: h.tokens })));
        if (notices.length > 0) await enqueueEvents(tx, notices);
      });
    }),

  loadSealedKey: async (kid) => {
    const row = await db.maybeOne(
      pool,
      t.type({ encryption_key_id: t.string, sealed_private_key: Bytes }),
      sql.unsafe`SELECT encryption_key_id, sealed_private_key FROM signing_keys WHERE kid = ${kid}`,
    );
    return row && { encryptionKeyId: row.encryption_key_id, sealedPrivateKey: row.sealed_private_key };
  },
});
