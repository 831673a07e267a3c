import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { nullable } from '@esign/contracts';
import { ForeignKeyIntegrityConstraintViolationError } from 'slonik';
import { db, sql, type Queryable } from '@esign/platform/database';
import type { DetailChange, StoredSiteSigner } from '../../domain/signer.js';
import type { SiteSignerStore } from '../../ports/site-signer-store.js';
import { containsPattern, Count, JsonTimestamp } from './rows.js';
import { task } from './task.js';

const SignerRow = t.type({
  site_id: t.number,
  signer_id: t.string,
  email: nullable(t.string),
  mobile_number: nullable(t.string),
  created_at: JsonTimestamp,
  updated_at: JsonTimestamp,
});

const toSigner = (r: t.TypeOf<typeof SignerRow>): StoredSiteSigner => ({
  siteId: r.site_id,
  signerId: r.signer_id,
  email: r.email,
  mobileNumber: r.mobile_number,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const COLUMNS = sql.fragment`site_id, signer_id, email, mobile_number,
  to_json(created_at) #>> '{}' AS created_at, to_json(updated_at) #>> '{}' AS updated_at`;

const Upserted = t.intersection([SignerRow, t.type({ created: t.boolean })]);

/** A Site's signers in the `signers` table a create upserts (ADR 3200). */
export const postgresSiteSignerStore = (q: Queryable): SiteSignerStore => {
  const read = async (siteId: number, signerId: string): Promise<StoredSiteSigner | null> => {
    const row = await db.maybeOne(
      q,
      SignerRow,
      sql.unsafe`SELECT ${COLUMNS} FROM signers WHERE site_id = ${siteId} AND signer_id = ${signerId}`,
    );
    return row === undefined ? null : toSigner(row);
  };
  return {
    list: (siteId, page, search) =>
      task(async () => {
        // A search reads the Site’s signers in full: no index serves a substring (ADR 3360 says why).
        const pattern = search === undefined ? null : containsPattern(search);
        const where = sql.fragment`site_id = ${siteId} ${
          pattern === null
            ? sql.fragment``
            : sql.fragment`AND (signer_id ILIKE ${pattern} OR email ILIKE ${pattern} OR mobile_number LIKE ${pattern})`
        }`;
        const [rows, count] = await Promise.all([
          db.any(
            q,
            SignerRow,
            sql.unsafe`
              SELECT ${COLUMNS} FROM signers WHERE ${where}
              ORDER BY signer_id LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
          ),
          db.one(q, Count, sql.unsafe`SELECT count(*) AS total FROM signers WHERE ${where}`),
        ]);
        return { items: rows.map(toSigner), total: count.total };
      }),
    get: (siteId, signerId) => task(async () => O.fromNullable(await read(siteId, signerId))),
    upsert: (s) =>
      task(async () => {
        // As a create's upsert (signer-upsert.ts): a detail kept stays as stored, and an
        // unchanged row is neither rewritten nor returned; a removed one becomes null.
        const value = (d: DetailChange) => (typeof d === 'object' ? d.set : null);
        const email = sql.fragment`CASE WHEN ${s.email === 'remove'} THEN NULL ELSE COALESCE(EXCLUDED.email, s.email) END`;
        const mobile = sql.fragment`CASE WHEN ${s.mobileNumber === 'remove'} THEN NULL
          ELSE COALESCE(EXCLUDED.mobile_number, s.mobile_number) END`;
        const row = await db.maybeOne(
          q,
          Upserted,
          sql.unsafe`
            INSERT INTO signers AS s (site_id, signer_id, email, mobile_number, created_at, updated_at)
            VALUES (${s.siteId}, ${s.signerId}, ${value(s.email)}, ${value(s.mobileNumber)}, now(), now())
            ON CONFLICT (site_id, signer_id) DO UPDATE
            SET email = ${email}, mobile_number = ${mobile}, updated_at = now()
            WHERE (s.email, s.mobile_number) IS DISTINCT FROM (${email}, ${mobile})
            RETURNING ${COLUMNS}, xmax = 0 AS created`,
        );
        if (row !== undefined) return { signer: toSigner(row), created: row.created };
        // Unchanged: the row exists (the statement locked it), so a new statement reads it.
        const stored = await read(s.siteId, s.signerId);
        if (stored === null)
          throw new Error(`signer ${s.signerId} of site ${s.siteId} vanished during its upsert`);
        return { signer: stored, created: false };
      }),
    remove: (siteId, signerId) =>
      task(async () => {
        try {
          const gone = await db.maybeOne(
            q,
            t.type({ deleted: t.literal(1) }),
            sql.unsafe`DELETE FROM signers WHERE site_id = ${siteId} AND signer_id = ${signerId} RETURNING 1 AS deleted`,
          );
          return gone === undefined ? 'missing' : 'deleted';
        } catch (error) {
          // request_signers' foreign key: a Request names the signer, even one committed beside this.
          if (error instanceof ForeignKeyIntegrityConstraintViolationError) return 'in_use';
          throw error;
        }
      }),
  };
};
