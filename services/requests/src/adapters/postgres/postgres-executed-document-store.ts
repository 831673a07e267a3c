import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { nullable } from '@esign/contracts';
import { db, msUntil, sql, type Queryable } from '@esign/platform/database';
import type { ExecutedDocumentStore, StoredExecutedDocument } from '../../ports/executed-document-store.js';
import { Bytes, JsonTimestamp } from './rows.js';
import { task } from './task.js';

const Row = t.type({
  request_id: t.string,
  pdf: Bytes,
  sha256: t.string,
  certificate_sha256: t.string,
  signed_at: JsonTimestamp,
  timestamped_at: nullable(JsonTimestamp),
});

const COLUMNS = sql.fragment`request_id, pdf, sha256, certificate_sha256, signed_at, timestamped_at`;

const fromRow = (row: t.TypeOf<typeof Row>): StoredExecutedDocument => ({
  requestId: row.request_id,
  pdf: row.pdf,
  sha256: row.sha256,
  certificateSha256: row.certificate_sha256,
  signedAt: row.signed_at,
  timestampedAt: row.timestamped_at,
});

export const postgresExecutedDocumentStore = (q: Queryable): ExecutedDocumentStore => {
  const find = async (requestId: string) =>
    O.fromNullable(
      await db.maybeOne(
        q,
        Row,
        sql.unsafe`SELECT ${COLUMNS} FROM executed_documents WHERE request_id = ${requestId}`,
      ),
    );
  return {
    find: (requestId) => task(async () => O.map(fromRow)(await find(requestId))),
    findBySha256: (sha256) =>
      task(async () =>
        O.map(fromRow)(
          O.fromNullable(
            await db.maybeOne(
              q,
              Row,
              sql.unsafe`SELECT ${COLUMNS} FROM executed_documents WHERE sha256 = ${sha256}`,
            ),
          ),
        ),
      ),
    insertOnce: (document) =>
      task(async () => {
        // No conflict target: two issuers of one Request insert identical bytes, so the
        // second can collide on the sha256 index before the primary key. With only
        // `(request_id)` as arbiter that collision is an error rather than "already kept".
        await db.exec(
          q,
          sql.unsafe`
            INSERT INTO executed_documents
              (request_id, pdf, sha256, size, certificate_sha256, signed_at, timestamped_at)
            VALUES (${document.requestId}, ${sql.binary(Buffer.from(document.pdf))}, ${document.sha256},
                    ${document.pdf.byteLength}, ${document.certificateSha256}, ${document.signedAt},
                    ${document.timestampedAt})
            ON CONFLICT DO NOTHING`,
        );
        const kept = await find(document.requestId);
        if (O.isNone(kept))
          throw new Error(
            `executed document of ${document.requestId} not kept: its sha256 belongs to another Request`,
          );
        return fromRow(kept.value);
      }),
    claim: (limit, leaseMs) =>
      task(async () =>
        (
          await db.any(
            q,
            t.type({ request_id: t.string, attempts: t.number }),
            // SKIP LOCKED: a replica claiming at the same moment takes the other rows.
            sql.unsafe`
              WITH claimed AS (
                UPDATE executed_document_queue queue
                SET next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
                FROM (
                  SELECT request_id, next_attempt_at FROM executed_document_queue
                  WHERE next_attempt_at <= now()
                  ORDER BY next_attempt_at DESC
                  LIMIT ${limit}
                  FOR UPDATE SKIP LOCKED
                ) due
                WHERE queue.request_id = due.request_id
                RETURNING queue.request_id, queue.attempts, due.next_attempt_at AS was_due
              )
              SELECT request_id, attempts FROM claimed ORDER BY was_due DESC`,
          )
        ).map((row) => ({ requestId: row.request_id, attempts: row.attempts })),
      ),
    postpone: (requestId, reason, retryInMs) =>
      task(async () => {
        await db.exec(
          q,
          sql.unsafe`
            UPDATE executed_document_queue
            SET attempts = attempts + 1, last_error = ${reason.slice(0, 1000)},
                next_attempt_at = now() + ${retryInMs} * interval '1 millisecond'
            WHERE request_id = ${requestId}`,
        );
      }),
    nextDueInMs: () =>
      task(() => msUntil(q, sql.fragment`(SELECT min(next_attempt_at) FROM executed_document_queue)`)),
  };
};
