import * as t from 'io-ts';
import { nullable } from '@esign/contracts';
import { db, sql, type Queryable } from '@esign/platform/database';
import type { EnteredAct, SignerAct } from '../../domain/signing.js';
import type { SignerActRepository } from '../../ports/signer-act-repository.js';
import { Bytes, JsonTimestamp } from './rows.js';
import { task } from './task.js';

const ActRow = t.type({
  signer_ref: t.string,
  signer_id: t.string,
  email: nullable(t.string),
  mobile_number: nullable(t.string),
  kind: t.keyof({ signed: null, declined: null }),
  at: JsonTimestamp,
  ip: t.string,
  user_agent: t.string,
  document_sha256: t.string,
  typed_name: nullable(t.string),
  drawn_signature: nullable(Bytes),
  field_values: t.record(t.string, t.union([t.string, t.boolean])),
  reason: nullable(t.string),
  auth_method: nullable(t.keyof({ access_code: null, email_otp: null, sms_otp: null })),
  auth_passed_at: nullable(JsonTimestamp),
});

/** What `enteredFor` reads of an act (ADR 3780). */
const EnteredRow = t.type({
  request_id: t.string,
  signer_id: t.string,
  kind: t.keyof({ signed: null, declined: null }),
  at: JsonTimestamp,
  typed_name: nullable(t.string),
  field_values: t.record(t.string, t.union([t.string, t.boolean])),
});

export const postgresSignerActRepository = (q: Queryable): SignerActRepository => ({
  insert: (requestId, act) =>
    task(async () => {
      await db.exec(
        q,
        sql.unsafe`
          INSERT INTO signer_acts
            (request_id, signer_ref, email, mobile_number, kind, at, ip, user_agent, document_sha256,
             typed_name, drawn_signature, field_values, reason, auth_method, auth_passed_at)
          VALUES (${requestId}, ${act.signerRef}, ${act.contact.email}, ${act.contact.mobileNumber}, ${act.kind}, ${act.at}, ${act.ip}, ${act.userAgent},
                  ${act.documentSha256}, ${act.typedName},
                  ${act.drawnSignature === null ? null : sql.binary(Buffer.from(act.drawnSignature))},
                  ${sql.jsonb(act.values)}, ${act.reason}, ${act.authentication?.method ?? null},
                  ${act.authentication?.passedAt ?? null})`,
      );
    }),
  list: (requestId) =>
    task(async () =>
      (
        await db.any(
          q,
          ActRow,
          sql.unsafe`
            SELECT a.signer_ref, rs.signer_id, a.email, a.mobile_number, a.kind, a.at, a.ip, a.user_agent, a.document_sha256,
                   a.typed_name, a.drawn_signature, a.field_values, a.reason, a.auth_method, a.auth_passed_at
            FROM signer_acts a
            JOIN request_signers rs ON rs.request_id = a.request_id AND rs.signer_ref = a.signer_ref
            WHERE a.request_id = ${requestId}
            ORDER BY a.at, rs.position`,
        )
      ).map((row): SignerAct => ({
        signerRef: row.signer_ref,
        signerId: row.signer_id,
        contact: { email: row.email, mobileNumber: row.mobile_number },
        kind: row.kind,
        at: row.at,
        ip: row.ip,
        userAgent: row.user_agent,
        documentSha256: row.document_sha256,
        typedName: row.typed_name,
        drawnSignature: row.drawn_signature,
        values: row.field_values,
        reason: row.reason,
        authentication:
          row.auth_method === null || row.auth_passed_at === null
            ? null
            : { method: row.auth_method, passedAt: row.auth_passed_at },
      })),
    ),
  enteredFor: (requestIds) =>
    task(async () => {
      const entered = new Map<string, EnteredAct[]>();
      if (requestIds.length === 0) return entered;
      const rows = await db.any(
        q,
        EnteredRow,
        sql.unsafe`
          SELECT a.request_id, rs.signer_id, a.kind, a.at, a.typed_name, a.field_values
          FROM signer_acts a
          JOIN request_signers rs ON rs.request_id = a.request_id AND rs.signer_ref = a.signer_ref
          WHERE a.request_id = ANY(${sql.array([...requestIds], 'uuid')})
          ORDER BY a.request_id, a.at, rs.position`,
      );
      for (const row of rows) {
        const act = {
          signerId: row.signer_id,
          kind: row.kind,
          at: row.at,
          typedName: row.typed_name,
          values: row.field_values,
        };
        const acts = entered.get(row.request_id);
        if (acts === undefined) entered.set(row.request_id, [act]);
        else acts.push(act);
      }
      return entered;
    }),
});
