import { sql } from '@esign/platform/database';
import type { Delivery, SignatureRequest } from '../../domain/signature-request.js';
import type { DeliveryJson, RequestRow } from './rows.js';

const fromDeliveryJson = (d: DeliveryJson | null): Delivery | null =>
  d === null ? null : { outcome: d.outcome, at: d.at, eventId: d.event_id, error: d.error };

/** Request ids are UUIDs; anything else names no Request (and must not reach a uuid cast). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The version each Request was read at (ADR 2800), kept beside the domain's value rather
 * than in it: the version is how the store detects a concurrent write, not something the
 * domain decides on. Keyed by the object a read answered, which is what a transition is
 * handed back as its `previous`.
 */
const versions = new WeakMap<SignatureRequest, number>();

/** The version `request` was read at; throws for a Request no read of this store answered. */
export const versionOf = (request: SignatureRequest): number => {
  const version = versions.get(request);
  if (version === undefined) throw new Error(`Request ${request.id} was not read from the store`);
  return version;
};

/** After a write: `request` is what the store holds now, at `version`. */
export const rememberVersion = (request: SignatureRequest, version: number): void => {
  versions.set(request, version);
};

export const toRequest = (row: RequestRow): SignatureRequest => {
  const request = requestOf(row);
  versions.set(request, row.version);
  return request;
};

const requestOf = (row: RequestRow): SignatureRequest => ({
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
    ...(s.placed_at_version !== 0 && { placedAtVersion: s.placed_at_version }),
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
  reminderIntervalDays: row.reminder_interval_days,
  nextReminderAt: row.next_reminder_at,
  testMode: row.test_mode,
  cc: row.cc_emails,
  message: row.message,
  title: row.title,
  subject: row.subject,
  allowReassign: row.allow_reassign,
  copiedFrom: row.copied_from,
  bulkSendId: row.bulk_send_id,
});

/**
 * A Request with its children in one statement: contracts, signers (with their contact
 * details: fixed at send, the site's current ones before) and fields come back as JSON arrays in their order.
 */
export const selectRequests = (where: ReturnType<typeof sql.fragment>, tail = sql.fragment``) => sql.unsafe`
  SELECT
    r.id, r.site_id, r.site_name, r.site_locale, r.created_by, r.creator_email, r.state, r.render_data,
    r.redirect_url, r.expires_at,
    r.created_at, r.updated_at, r.sent_at, r.cancelled_at, r.expired_at, r.completed_at,
    r.declined_at, r.last_reminded_at, r.remind_count, r.reminder_interval_days, r.next_reminder_at,
    r.test_mode, r.cc_emails, r.message, r.title, r.subject, r.copied_from, r.bulk_send_id, r.allow_reassign, r.version,
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
        'link_version', rs.link_version, 'link_issued_at', rs.link_issued_at,
        'placed_at_version', rs.placed_at_version) ORDER BY rs.position)
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

export const inSites = (siteIds: readonly number[]) => sql.array([...siteIds], 'int8');
