import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { isUuid, nullable } from '@esign/contracts';
import { db, sql, type Queryable } from '@esign/platform/database';
import type { EmbeddedSession } from '../../domain/embedded-signing.js';
import type { EmbeddedSessionStore } from '../../ports/embedded-session-store.js';
import { JsonTimestamp } from './rows.js';
import { task } from './task.js';

const SessionRow = t.type({
  id: t.string,
  request_id: t.string,
  signer_ref: t.string,
  signer_id: t.string,
  frame_origins: t.array(t.string),
  parent_origin: t.string,
  created_at: JsonTimestamp,
  expires_at: JsonTimestamp,
  opened_at: nullable(JsonTimestamp),
  claimed: t.boolean,
});

const toSession = (r: t.TypeOf<typeof SessionRow>): EmbeddedSession => ({
  id: r.id,
  requestId: r.request_id,
  signerRef: r.signer_ref,
  signerId: r.signer_id,
  frameOrigins: r.frame_origins,
  parentOrigin: r.parent_origin,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  openedAt: r.opened_at,
});

const columns = sql.fragment`id, request_id, signer_ref, signer_id, frame_origins, parent_origin,
  to_json(created_at) #>> '{}' AS created_at, to_json(expires_at) #>> '{}' AS expires_at,
  to_json(opened_at) #>> '{}' AS opened_at`;

export const postgresEmbeddedSessionStore = (q: Queryable): EmbeddedSessionStore => ({
  insert: (session, tokenSha256) =>
    task(async () => {
      await db.exec(
        q,
        sql.unsafe`
          INSERT INTO embedded_sessions
            (id, token_sha256, request_id, signer_ref, signer_id, frame_origins, parent_origin, created_at, expires_at)
          VALUES (${session.id}, ${tokenSha256}, ${session.requestId}, ${session.signerRef}, ${session.signerId},
                  ${sql.array([...session.frameOrigins], 'text')}, ${session.parentOrigin},
                  ${session.createdAt}, ${session.expiresAt})`,
      );
    }),
  claim: (tokenSha256, now) =>
    task(async () => {
      // The conditional update is the claim: of two openings at once, one updates the row.
      const claimed = await db.maybeOne(
        q,
        SessionRow,
        sql.unsafe`
          UPDATE embedded_sessions SET opened_at = ${now}
          WHERE token_sha256 = ${tokenSha256} AND opened_at IS NULL AND expires_at > ${now}
          RETURNING ${columns}, true AS claimed`,
      );
      if (claimed) return O.some({ session: toSession(claimed), claimed: true });
      const row = await db.maybeOne(
        q,
        SessionRow,
        sql.unsafe`SELECT ${columns}, false AS claimed FROM embedded_sessions WHERE token_sha256 = ${tokenSha256}`,
      );
      return row ? O.some({ session: toSession(row), claimed: false }) : O.none;
    }),
  find: (id) =>
    task(async () => {
      if (!isUuid(id)) return O.none;
      const row = await db.maybeOne(
        q,
        SessionRow,
        sql.unsafe`SELECT ${columns}, false AS claimed FROM embedded_sessions WHERE id = ${id}`,
      );
      return O.map(toSession)(O.fromNullable(row));
    }),
});
