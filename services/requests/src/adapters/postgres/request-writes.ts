import { sql } from '@esign/platform/database';
import type { SignatureRequest } from '../../domain/signature-request.js';
import { contractWrites, fieldWrites } from './request-contract-writes.js';
import { signerRowsInsert, signersDelete, signersInsert, signersWrite } from './request-signer-writes.js';

type Fragment = ReturnType<typeof sql.fragment>;

/**
 * Writes as one statement: all but the last as data-modifying CTEs, which Postgres runs
 * to completion whether or not anything reads them. Foreign keys between them are
 * checked at the end of the statement, when every row is in; a failure undoes all.
 * Composed by slonik on every call; `oneStatement` is the same, composed once per shape.
 */
export const composeStatement = (writes: readonly Fragment[]) => {
  const last = writes.at(-1);
  if (last === undefined) throw new Error('oneStatement needs at least one write');
  if (writes.length === 1) return sql.unsafe`${last}`;
  const ctes = writes.slice(0, -1).map((w, i) => sql.fragment`${sql.identifier([`w${i}`])} AS (${w})`);
  return sql.unsafe`WITH ${sql.join(ctes, sql.fragment`, `)} ${last}`;
};

/** Composed statements by their writes' texts; a service has a handful (ADR 2870). */
const composed = new Map<string, ReturnType<typeof composeStatement>>();
const MAX_COMPOSED = 256;

/**
 * `composeStatement`, with the text composed once per shape (ADR 2870). A create's writes
 * have the same texts whenever it has the same parts, and most of what slonik spent
 * composing a create went on nesting them (renumbering each write's placeholders, copying
 * its text at each level). The nesting adds text but no values, so the statement's values are
 * the writes' own, in order.
 */
export const oneStatement = (writes: readonly Fragment[]) => {
  const key = writes.map((w) => w.sql).join('\u0000');
  const known = composed.get(key);
  if (known !== undefined) return { ...known, values: writes.flatMap((w) => w.values) };
  const query = composeStatement(writes);
  if (composed.size >= MAX_COMPOSED) composed.clear();
  composed.set(key, query);
  return query;
};

/** The Request's texts, each in the column of its name: message, title, e-mail subject. */
const TEXTS = ['message', 'title', 'subject'] as const;

/** `, column = value` for each text `request` changed since `previous`; nothing if none. */
const textsChanged = (request: SignatureRequest, previous: SignatureRequest) => {
  const changed = TEXTS.filter((c) => request[c] !== previous[c]);
  // An empty list is refused by slonik: no text changed is no fragment.
  return changed.length === 0
    ? sql.fragment``
    : sql.join(
        changed.map((c) => sql.fragment`, ${sql.identifier([c])} = ${request[c] ?? null}`),
        sql.fragment``,
      );
};

/** The Request and all its children, as writes for `oneStatement`. */
export const requestInserts = (request: SignatureRequest): Fragment[] => [
  sql.fragment`
    INSERT INTO requests
      (id, site_id, site_name, site_locale, created_by, creator_email, state, render_data, redirect_url,
       expires_at, created_at, updated_at, test_mode, reminder_interval_days, cc_emails, message,
       title, subject, copied_from, bulk_send_id, allow_reassign)
    VALUES (${request.id}, ${request.siteId}, ${request.siteName}, ${request.siteLocale ?? null},
            ${request.creator?.userId ?? null}, ${request.creator?.email ?? null}, ${request.state},
            ${sql.jsonb(request.renderData)}, ${request.redirectUrl}, ${request.expiresAt},
            ${request.createdAt}, ${request.updatedAt}, ${request.testMode}, ${request.reminderIntervalDays},
            ${sql.array([...(request.cc ?? [])], 'text')}, ${request.message ?? null},
            ${request.title ?? null}, ${request.subject ?? null}, ${request.copiedFrom ?? null},
            ${request.bulkSendId ?? null}, ${request.allowReassign ?? false})`,
  sql.fragment`
    INSERT INTO request_contracts (request_id, position, template_id, name)
    SELECT ${request.id}, position, template_id, name
    FROM ${sql.unnest(
      request.contracts.map((c, i) => [i, c.id, c.name]),
      ['int2', 'int8', 'text'],
    )} AS c(position, template_id, name)`,
  signerRowsInsert(request, request.signers, sql.fragment`0`),
  sql.fragment`
    INSERT INTO request_fields (request_id, position, name, default_value, assigned_to)
    SELECT ${request.id}, position, name, default_value::jsonb, assigned_to
    FROM ${sql.unnest(
      request.fields.map((f, i) => [
        i,
        f.name,
        f.defaultValue === null ? null : JSON.stringify(f.defaultValue),
        f.assignedTo,
      ]),
      ['int4', 'text', 'text', 'text'],
    )} AS f(position, name, default_value, assigned_to)`,
];

/**
 * A transition's write as one statement (ADRs 2502, 2650, 2800): the Request's row, raising
 * its version (its render_data or cc only when one was replaced), only if it is still at
 * the version `previous` was read at; then, only if that row was written, the signers that
 * changed, a draft's fields when they were replaced (ADR 3220), and the writes `events`
 * makes of the transition's events (the outbox, the audit trail's corrections). Answers one row,
 * `written`: 1 when the transition was stored, 0 when the Request had moved on and nothing
 * was. One statement is atomic without BEGIN … COMMIT, so a transition read without a
 * lock needs no transaction to be stored all or not at all.
 */
export const transitionWrite = (
  previous: SignatureRequest,
  request: SignatureRequest,
  version: number,
  events: (when: Fragment) => readonly (Fragment | undefined)[],
) => {
  const guard = sql.fragment`
      UPDATE requests SET
        state = ${request.state}, updated_at = ${request.updatedAt}, sent_at = ${request.sentAt},
        cancelled_at = ${request.cancelledAt}, expired_at = ${request.expiredAt},
        completed_at = ${request.completedAt}, declined_at = ${request.declinedAt},
        last_reminded_at = ${request.lastRemindedAt}, remind_count = ${request.remindCount},
        next_reminder_at = ${request.nextReminderAt}, expires_at = ${request.expiresAt},
        reminder_interval_days = ${request.reminderIntervalDays}, version = version + 1${
          // Only a change of render_data (ADR 3220), cc (ADR 3230), a text (ADRs 3380-3400) or
          // allow_reassign (ADR 3560) writes it: every other transition's statement stays the
          // same text, and carries no copy of them.
          request.renderData === previous.renderData
            ? sql.fragment``
            : sql.fragment`, render_data = ${sql.jsonb(request.renderData)}`
        }${request.cc === previous.cc ? sql.fragment`` : sql.fragment`, cc_emails = ${sql.array([...(request.cc ?? [])], 'text')}`}${textsChanged(request, previous)}${
          (request.allowReassign ?? false) === (previous.allowReassign ?? false)
            ? sql.fragment``
            : sql.fragment`, allow_reassign = ${request.allowReassign === true}`
        }
      WHERE id = ${request.id} AND version = ${version}
      RETURNING id`;
  const written = sql.fragment`EXISTS (SELECT 1 FROM guard)`;
  const writes: Fragment[] = [];
  // Only a change of the draft's signers (ADR 3280) or contracts (ADR 3300) adds an insert
  // or a delete of them, or of its fields.
  for (const write of [
    signersWrite(previous, request, written),
    signersInsert(previous, request, written),
    signersDelete(previous, request, written),
    ...contractWrites(previous, request, written),
    ...fieldWrites(previous, request, written),
  ])
    if (write !== undefined) writes.push(write);
  for (const write of events(written)) if (write !== undefined) writes.push(write);
  const ctes = [
    sql.fragment`guard AS (${guard})`,
    ...writes.map((w, i) => sql.fragment`${sql.identifier([`w${i}`])} AS (${w})`),
  ];
  return sql.unsafe`
    WITH ${sql.join(ctes, sql.fragment`, `)}
    SELECT count(*)::int AS written FROM guard`;
};
