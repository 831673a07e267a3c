import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { db, sql, type Queryable } from '@esign/platform';
import type { Delivery, RequestSigner, SignatureRequest } from '../../domain/signature-request.js';
import type { RequestRepository } from '../../ports/request-repository.js';
import { Count, RequestRow, requestRowChanged, type DeliveryJson } from './rows.js';
import { task } from './task.js';

const fromDeliveryJson = (d: DeliveryJson | null): Delivery | null =>
  d === null ? null : { outcome: d.outcome, at: d.at, eventId: d.event_id, error: d.error };

const toDeliveryJson = (d: Delivery | null): string | null =>
  d === null ? null : JSON.stringify({ outcome: d.outcome, at: d.at, event_id: d.eventId, error: d.error });

/** Request ids are UUIDs; anything else names no Request (and must not reach a uuid cast). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const toRequest = (row: RequestRow): SignatureRequest => ({
  id: row.id,
  creator: row.created_by === null ? null : { userId: row.created_by, email: row.creator_email },
  siteId: row.site_id,
  siteLocale: row.site_locale,
  // The branded display name, when the Site has one, is what signers are told (ADR 2301).
  siteName: row.branding?.display_name ?? row.site_name,
  ...(row.branding === null
    ? {}
    : {
        branding: {
          siteId: row.site_id,
          displayName: row.branding.display_name,
          accentColor: row.branding.accent_color,
          replyTo: row.branding.reply_to,
          emailFooter: row.branding.email_footer,
          logoSha256: row.branding.logo_sha256,
          updatedAt: row.branding.updated_at,
        },
      }),
  state: row.state,
  contracts: row.contracts,
  signers: row.signers.map((s) => ({
    signerId: s.signer_id,
    signerRef: s.signer_ref,
    contact: { email: s.email, mobileNumber: s.mobile_number },
    sendTo: { email: s.send_email, sms: s.send_sms },
    order: s.signing_order,
    authentication: s.auth_method,
    viewedAt: s.viewed_at,
    locale: s.locale,
    state: s.state,
    signedAt: s.signed_at,
    declinedAt: s.declined_at,
    delivery: { email: fromDeliveryJson(s.email_delivery), sms: fromDeliveryJson(s.sms_delivery) },
    link: { version: s.link_version, issuedAt: s.link_issued_at },
  })),
  fields: row.fields.map((f) => ({ name: f.name, defaultValue: f.default_value, assignedTo: f.assigned_to })),
  renderData: row.render_data,
  redirectUrl: row.redirect_url,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  sentAt: row.sent_at,
  cancelledAt: row.cancelled_at,
  expiredAt: row.expired_at,
  completedAt: row.completed_at,
  declinedAt: row.declined_at,
  lastRemindedAt: row.last_reminded_at,
  remindCount: row.remind_count,
  testMode: row.test_mode,
});

/**
 * A Request with its children in one statement: contracts, signers (with their contact
 * details: fixed at send, the site's current ones before) and fields come back as JSON arrays in their order.
 */
const selectRequests = (where: ReturnType<typeof sql.fragment>, tail = sql.fragment``) => sql.unsafe`
  SELECT
    r.id, r.site_id, r.site_name, r.site_locale, r.created_by, r.creator_email, r.state, r.render_data,
    r.redirect_url, r.expires_at,
    r.created_at, r.updated_at, r.sent_at, r.cancelled_at, r.expired_at, r.completed_at,
    r.declined_at, r.last_reminded_at, r.remind_count, r.test_mode,
    COALESCE((
      SELECT json_agg(json_build_object('id', c.template_id, 'name', c.name) ORDER BY c.position)
      FROM request_contracts c WHERE c.request_id = r.id), '[]') AS contracts,
    COALESCE((
      SELECT json_agg(json_build_object(
        'signer_id', rs.signer_id, 'signer_ref', rs.signer_ref,
        -- From send on, the details the Request was sent to (ADR 1302); before, the site's current ones.
        'email', CASE WHEN rs.contact_fixed THEN rs.sent_email ELSE s.email END,
        'mobile_number', CASE WHEN rs.contact_fixed THEN rs.sent_mobile_number ELSE s.mobile_number END,
        'send_email', rs.send_email, 'send_sms', rs.send_sms, 'signing_order', rs.signing_order,
        'auth_method', rs.auth_method, 'viewed_at', rs.viewed_at, 'locale', rs.locale,
        'state', rs.state, 'signed_at', rs.signed_at, 'declined_at', rs.declined_at,
        'email_delivery', rs.email_delivery, 'sms_delivery', rs.sms_delivery,
        'link_version', rs.link_version, 'link_issued_at', rs.link_issued_at) ORDER BY rs.position)
      FROM request_signers rs
      JOIN signers s ON s.site_id = rs.site_id AND s.signer_id = rs.signer_id
      WHERE rs.request_id = r.id), '[]') AS signers,
    COALESCE((
      SELECT json_agg(json_build_object(
        'name', f.name, 'default_value', f.default_value, 'assigned_to', f.assigned_to) ORDER BY f.position)
      FROM request_fields f WHERE f.request_id = r.id), '[]') AS fields,
    (SELECT json_build_object(
        'display_name', b.display_name, 'accent_color', b.accent_color, 'reply_to', b.reply_to,
        'email_footer', b.email_footer, 'logo_sha256', b.logo_sha256, 'updated_at', b.updated_at)
      FROM site_brandings b WHERE b.site_id = r.site_id) AS branding
  FROM requests r
  WHERE ${where}
  ${tail}`;

const inSites = (siteIds: readonly number[]) => sql.array([...siteIds], 'int8');

export const postgresRequestRepository = (q: Queryable): RequestRepository => {
  const load = async (
    id: string,
    siteIds: readonly number[] | 'any',
  ): Promise<O.Option<SignatureRequest>> => {
    if (!UUID.test(id)) return O.none;
    const scope = siteIds === 'any' ? sql.fragment`TRUE` : sql.fragment`r.site_id = ANY(${inSites(siteIds)})`;
    return O.map(toRequest)(
      O.fromNullable(
        await db.maybeOne(q, RequestRow, selectRequests(sql.fragment`r.id = ${id} AND ${scope}`)),
      ),
    );
  };

  // Lock first, read after: a read in the locking statement could see children older
  // than the row it waited for.
  const lockAndLoad = async (
    id: string,
    siteIds: readonly number[] | 'any',
  ): Promise<O.Option<SignatureRequest>> => {
    if (!UUID.test(id)) return O.none;
    const scope = siteIds === 'any' ? sql.fragment`TRUE` : sql.fragment`site_id = ANY(${inSites(siteIds)})`;
    const locked = await db.maybeOne(
      q,
      t.type({ id: t.string }),
      sql.unsafe`SELECT id FROM requests WHERE id = ${id} AND ${scope} FOR UPDATE`,
    );
    return locked === undefined ? O.none : await load(id, siteIds);
  };

  const signersChanged = (previous: SignatureRequest, next: SignatureRequest): RequestSigner[] =>
    next.signers.filter((s, i) => s !== previous.signers[i]);

  return {
    // One statement for the Request and all its children: foreign keys between sibling
    // CTEs are checked at the end of the statement, when every row is in.
    insert: (request) =>
      task(async () => {
        await db.exec(
          q,
          sql.unsafe`
            WITH request AS (
              INSERT INTO requests
                (id, site_id, site_name, site_locale, created_by, creator_email, state, render_data, redirect_url,
                 expires_at, created_at, updated_at, test_mode)
              VALUES (${request.id}, ${request.siteId}, ${request.siteName}, ${request.siteLocale ?? null},
                      ${request.creator?.userId ?? null}, ${request.creator?.email ?? null}, ${request.state},
                      ${sql.jsonb(request.renderData)}, ${request.redirectUrl}, ${request.expiresAt},
                      ${request.createdAt}, ${request.updatedAt}, ${request.testMode})
            ), contracts AS (
              INSERT INTO request_contracts (request_id, position, template_id, name)
              SELECT ${request.id}, position, template_id, name
              FROM ${sql.unnest(
                request.contracts.map((c, i) => [i, c.id, c.name]),
                ['int2', 'int8', 'text'],
              )} AS c(position, template_id, name)
            ), signers AS (
              INSERT INTO request_signers
                (request_id, position, site_id, signer_id, signer_ref, send_email, send_sms, signing_order, auth_method,
                 state, locale)
              SELECT ${request.id}, position, ${request.siteId}, signer_id, signer_ref, send_email, send_sms,
                     signing_order, auth_method, state, locale
              FROM ${sql.unnest(
                request.signers.map((s, i) => [
                  i,
                  s.signerId,
                  s.signerRef,
                  s.sendTo.email,
                  s.sendTo.sms,
                  s.order,
                  s.authentication,
                  s.state,
                  s.locale ?? null,
                ]),
                ['int2', 'text', 'text', 'bool', 'bool', 'int2', 'text', 'text', 'text'],
              )} AS s(position, signer_id, signer_ref, send_email, send_sms, signing_order, auth_method, state, locale)
            )
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
        );
      }),
    find: (id, siteIds) => task(() => load(id, siteIds)),
    markViewed: (requestId, signerRef, evidence) =>
      task(async () => {
        const rows = await db.any(
          q,
          t.type({ signer_ref: t.string }),
          sql.unsafe`
            UPDATE request_signers
            SET viewed_at = ${evidence.at}, viewed_ip = ${evidence.ip}, viewed_user_agent = ${evidence.userAgent}
            WHERE request_id = ${requestId} AND signer_ref = ${signerRef} AND viewed_at IS NULL
            RETURNING signer_ref`,
        );
        return rows.length > 0;
      }),
    lock: (id, siteIds) => task(() => lockAndLoad(id, siteIds)),
    lockByVerifiedId: (id) => task(() => lockAndLoad(id, 'any')),
    siteOf: (id, siteIds) =>
      task(async () =>
        !UUID.test(id)
          ? O.none
          : O.map((r: { site_id: number }) => r.site_id)(
              O.fromNullable(
                await db.maybeOne(
                  q,
                  t.type({ site_id: t.number }),
                  sql.unsafe`SELECT site_id FROM requests WHERE id = ${id} AND site_id = ANY(${inSites(siteIds)})`,
                ),
              ),
            ),
      ),
    // As few statements as the change needs (ADR 2502): the Request's row is written only
    // when one of its own columns changed (a delivery outcome changes a signer only), and
    // then as a CTE of the first signers statement rather than a round trip of its own.
    update: (previous, request) =>
      task(async () => {
        const statements: ReturnType<typeof sql.fragment>[] = [];
        // Sending fixes each signer's contact details: reminders, the audit trail and the
        // executed PDF name the address the Request went to, whatever is upserted later.
        if (previous.sentAt === null && request.sentAt !== null)
          statements.push(sql.fragment`
              UPDATE request_signers rs
              SET sent_email = s.email, sent_mobile_number = s.mobile_number, contact_fixed = true
              FROM ${sql.unnest(
                request.signers.map((s) => [s.signerRef, s.contact.email, s.contact.mobileNumber]),
                ['text', 'text', 'text'],
              )} AS s(signer_ref, email, mobile_number)
              WHERE rs.request_id = ${request.id} AND rs.signer_ref = s.signer_ref`);
        // Signers are immutable values in the domain: an unchanged one is the same object.
        const changed = signersChanged(previous, request);
        if (changed.length > 0)
          statements.push(sql.fragment`
            UPDATE request_signers rs
            SET state = s.state, signed_at = s.signed_at, declined_at = s.declined_at,
                email_delivery = s.email_delivery::jsonb, sms_delivery = s.sms_delivery::jsonb,
                link_version = s.link_version, link_issued_at = s.link_issued_at
            FROM ${sql.unnest(
              changed.map((s) => [
                s.signerRef,
                s.state,
                s.signedAt,
                s.declinedAt,
                toDeliveryJson(s.delivery.email),
                toDeliveryJson(s.delivery.sms),
                s.link.version,
                s.link.issuedAt,
              ]),
              ['text', 'text', 'timestamptz', 'timestamptz', 'text', 'text', 'int4', 'timestamptz'],
            )} AS s(signer_ref, state, signed_at, declined_at, email_delivery, sms_delivery, link_version, link_issued_at)
            WHERE rs.request_id = ${request.id} AND rs.signer_ref = s.signer_ref`);
        const row = !requestRowChanged(previous, request)
          ? undefined
          : sql.fragment`
            UPDATE requests SET
              state = ${request.state}, updated_at = ${request.updatedAt}, sent_at = ${request.sentAt},
              cancelled_at = ${request.cancelledAt}, expired_at = ${request.expiredAt},
              completed_at = ${request.completedAt}, declined_at = ${request.declinedAt},
              last_reminded_at = ${request.lastRemindedAt}, remind_count = ${request.remindCount}
            WHERE id = ${request.id}`;
        const [first, ...rest] = statements;
        if (first === undefined) {
          if (row !== undefined) await db.exec(q, sql.unsafe`${row}`);
          return;
        }
        // Different tables, so the CTE and the statement cannot touch the same row twice.
        await db.exec(
          q,
          row === undefined ? sql.unsafe`${first}` : sql.unsafe`WITH request AS (${row}) ${first}`,
        );
        for (const statement of rest) await db.exec(q, sql.unsafe`${statement}`);
      }),
    lockDueForExpiry: (now, limit) =>
      task(async () => {
        const due = await db.any(
          q,
          t.type({ id: t.string }),
          sql.unsafe`
            SELECT id FROM requests
            WHERE state IN ('draft', 'sent') AND expires_at <= ${now}
            ORDER BY expires_at
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED`,
        );
        if (due.length === 0) return [];
        const rows = await db.any(
          q,
          RequestRow,
          selectRequests(
            sql.fragment`r.id = ANY(${sql.array(
              due.map((d) => d.id),
              'uuid',
            )})`,
          ),
        );
        return rows.map(toRequest);
      }),
    findByVerifiedId: (id) => task(() => load(id, 'any')),
    list: (siteId, page, filter) =>
      task(async () => {
        const { state, testMode } = filter;
        const where = sql.fragment`r.site_id = ${siteId}
          ${state === undefined ? sql.fragment`` : sql.fragment`AND r.state = ${state}`}
          ${testMode === undefined ? sql.fragment`` : sql.fragment`AND r.test_mode = ${testMode}`}`;
        const [rows, count] = await Promise.all([
          db.any(
            q,
            RequestRow,
            selectRequests(
              where,
              sql.fragment`ORDER BY r.created_at DESC, r.id DESC LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
            ),
          ),
          db.one(q, Count, sql.unsafe`SELECT count(*) AS total FROM requests r WHERE ${where}`),
        ]);
        return { items: rows.map(toRequest), total: count.total };
      }),
  };
};
