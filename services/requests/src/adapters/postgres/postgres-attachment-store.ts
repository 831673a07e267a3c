import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { db, sql, type Queryable } from '@esign/platform/database';
import type { AttachmentStore, KeptAttachment } from '../../ports/attachment-store.js';
import { Bytes, JsonTimestamp } from './rows.js';
import { task } from './task.js';

const KeptRow = t.type({
  field_name: t.string,
  file_name: t.string,
  content_type: t.keyof({ 'application/pdf': null, 'image/png': null, 'image/jpeg': null }),
  size: t.number,
  sha256: t.string,
  kept_at: JsonTimestamp,
});

const FileRow = t.intersection([KeptRow, t.type({ content: Bytes })]);

const kept = (row: t.TypeOf<typeof KeptRow>): KeptAttachment => ({
  fieldName: row.field_name,
  fileName: row.file_name,
  contentType: row.content_type,
  size: row.size,
  sha256: row.sha256,
  keptAt: row.kept_at,
});

const COLUMNS = sql.fragment`field_name, file_name, content_type, octet_length(content) AS size, sha256, kept_at`;

/** The signers' files (ADR 3920): their SHA-256 computed by Postgres as they are written. */
export const postgresAttachmentStore = (q: Queryable): AttachmentStore => ({
  keep: (requestId, signerRef, fieldName, upload, at) =>
    task(async () => {
      await db.exec(
        q,
        sql.unsafe`
          INSERT INTO signer_attachments
            (request_id, signer_ref, field_name, file_name, content_type, content, sha256, kept_at)
          SELECT ${requestId}, ${signerRef}, ${fieldName}, ${upload.fileName}, ${upload.contentType},
                 c, encode(sha256(c), 'hex'), ${at}
          FROM (SELECT ${sql.binary(Buffer.from(upload.bytes))}::bytea AS c) f
          ON CONFLICT (request_id, signer_ref, field_name) DO UPDATE
            SET file_name = EXCLUDED.file_name, content_type = EXCLUDED.content_type,
                content = EXCLUDED.content, sha256 = EXCLUDED.sha256, kept_at = EXCLUDED.kept_at`,
      );
    }),
  keptBy: (requestId, signerRef) =>
    task(async () =>
      (
        await db.any(
          q,
          KeptRow,
          sql.unsafe`
            SELECT ${COLUMNS} FROM signer_attachments
            WHERE request_id = ${requestId} AND signer_ref = ${signerRef}
            ORDER BY field_name`,
        )
      ).map(kept),
    ),
  file: (requestId, signerRef, fieldName) =>
    task(async () => {
      const row = await db.maybeOne(
        q,
        FileRow,
        sql.unsafe`
          SELECT ${COLUMNS}, content FROM signer_attachments
          WHERE request_id = ${requestId} AND signer_ref = ${signerRef} AND field_name = ${fieldName}`,
      );
      return row === undefined ? O.none : O.some({ ...kept(row), content: row.content });
    }),
});
