import { randomUUID } from 'node:crypto';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import { isUuid } from '@esign/contracts';
import { db, sql, type DatabasePool } from '@esign/platform/database';
import type { StoredTestMessage, TestInbox } from '../../ports/test-inbox.js';

const nullableString = t.union([t.string, t.null]);

const MessageRow = t.type({
  id: t.string,
  event_id: t.string,
  signer_ref: t.string,
  channel: t.keyof({ email: null, sms: null }),
  event_type: t.string,
  request_id: t.string,
  site_id: t.number,
  signer_id: t.string,
  recipient: t.string,
  subject: nullableString,
  body: t.string,
  html: nullableString,
  execution_url: nullableString,
  created_at: t.string,
});

const toMessage = (r: t.TypeOf<typeof MessageRow>): StoredTestMessage => ({
  id: r.id,
  key: { eventId: r.event_id, signerRef: r.signer_ref, channel: r.channel },
  eventType: r.event_type,
  requestId: r.request_id,
  siteId: r.site_id,
  signerId: r.signer_id,
  recipient: r.recipient,
  subject: r.subject,
  body: r.body,
  html: r.html,
  executionUrl: r.execution_url,
  createdAt: r.created_at,
});

/** The `test_messages` table: test-mode messages kept instead of sent (ADR 2200). */
export const postgresTestInbox = (pool: DatabasePool): TestInbox => ({
  keep: (m) =>
    TE.rightTask(async () => {
      // The first copy of a message wins; a repeat answers the id that copy was kept under.
      const row = await db.one(
        pool,
        t.type({ id: t.string }),
        sql.unsafe`
        WITH inserted AS (
          INSERT INTO test_messages
            (id, event_id, signer_ref, channel, event_type, request_id, site_id, signer_id, recipient,
             subject, body, html, execution_url)
          VALUES (${randomUUID()}, ${m.key.eventId}, ${m.key.signerRef}, ${m.key.channel}, ${m.eventType},
                  ${m.requestId}, ${m.siteId}, ${m.signerId}, ${m.recipient}, ${m.subject}, ${m.body},
                  ${m.html}, ${m.executionUrl})
          ON CONFLICT (event_id, signer_ref, channel) DO NOTHING
          RETURNING id
        )
        SELECT id FROM inserted
        UNION ALL
        SELECT id FROM test_messages
        WHERE event_id = ${m.key.eventId} AND signer_ref = ${m.key.signerRef} AND channel = ${m.key.channel}
        LIMIT 1`,
      );
      return { providerMessageId: `test-mode:${row.id}` };
    }),

  list: (requestId, siteIds, page) =>
    TE.rightTask(async () => {
      if (!isUuid(requestId) || siteIds.length === 0) return { items: [], total: 0 };
      const where = sql.fragment`request_id = ${requestId} AND site_id = ANY(${sql.array([...siteIds], 'int8')})`;
      const [rows, count] = await Promise.all([
        db.any(
          pool,
          MessageRow,
          sql.unsafe`
          SELECT id, event_id, signer_ref, channel, event_type, request_id, site_id, signer_id, recipient,
                 subject, body, html, execution_url, created_at
          FROM test_messages WHERE ${where}
          ORDER BY created_at, id
          LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
        ),
        db.one(
          pool,
          t.type({ n: t.number }),
          sql.unsafe`SELECT count(*) AS n FROM test_messages WHERE ${where}`,
        ),
      ]);
      return { items: rows.map(toMessage), total: count.n };
    }),
});
