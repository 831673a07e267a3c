// The signers' part of a transition's statement (request-writes.ts): those that changed,
// and a draft's signers added and removed (ADR 3280).
import { sql } from '@esign/platform/database';
import type { Delivery, RequestSigner, SignatureRequest } from '../../domain/signature-request.js';

type Fragment = ReturnType<typeof sql.fragment>;

/** A channel's delivery status as its column holds it. */
export const toDeliveryJson = (d: Delivery | null): string | null =>
  d === null ? null : JSON.stringify({ outcome: d.outcome, at: d.at, event_id: d.eventId, error: d.error });

/**
 * The signers a transition changed, each with what it was, matched by `signer_ref`: a
 * draft's signers may be added or removed (ADR 3280), so a place in the list is not a
 * signer. One added is not among them (`signersInsert`).
 */
const signersChanged = (
  previous: SignatureRequest,
  next: SignatureRequest,
): { readonly before: RequestSigner; readonly after: RequestSigner }[] => {
  const before = new Map(previous.signers.map((s) => [s.signerRef, s]));
  return next.signers.flatMap((after) => {
    const was = before.get(after.signerRef);
    return was === undefined || was === after ? [] : [{ before: was, after }];
  });
};

const refsOf = (request: SignatureRequest) => new Set(request.signers.map((s) => s.signerRef));

/**
 * The rows of `signers` of `request`, the first at place `first` (an expression) and each
 * next one place after: a create's, from 0, and those added to a draft (ADR 3280).
 */
export const signerRowsInsert = (
  request: SignatureRequest,
  signers: readonly RequestSigner[],
  first: Fragment,
  when?: Fragment,
) => sql.fragment`
    INSERT INTO request_signers
      (request_id, position, site_id, signer_id, signer_ref, send_email, send_sms, signing_order, auth_method,
       state, locale)
    SELECT ${request.id}, ${first} + s.n, ${request.siteId}, signer_id, signer_ref, send_email, send_sms,
           signing_order, auth_method, state, locale
    FROM ${sql.unnest(
      signers.map((s, i) => [
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
    )} AS s(n, signer_id, signer_ref, send_email, send_sms, signing_order, auth_method, state, locale)${
      when === undefined ? sql.fragment`` : sql.fragment` WHERE ${when}`
    }`;

/**
 * Signers added to a draft (ADR 3280), after those it has: their places follow the highest
 * one stored, since a removal leaves a gap and places only order the list.
 */
export const signersInsert = (previous: SignatureRequest, request: SignatureRequest, when: Fragment) => {
  const had = refsOf(previous);
  const added = request.signers.filter((s) => !had.has(s.signerRef));
  if (added.length === 0) return undefined;
  const next = sql.fragment`(SELECT coalesce(max(position) + 1, 0) FROM request_signers WHERE request_id = ${request.id})`;
  return signerRowsInsert(request, added, next, when);
};

/** Signers removed from a draft (ADR 3280); the fields that were theirs are unassigned by `fieldsWrite`. */
export const signersDelete = (previous: SignatureRequest, request: SignatureRequest, when: Fragment) => {
  const has = refsOf(request);
  const removed = previous.signers.filter((s) => !has.has(s.signerRef)).map((s) => s.signerRef);
  if (removed.length === 0) return undefined;
  return sql.fragment`
    DELETE FROM request_signers
    WHERE request_id = ${request.id} AND signer_ref = ANY(${sql.array(removed, 'text')}) AND ${when}`;
};

const contactChanged = (before: RequestSigner | undefined, after: RequestSigner): boolean =>
  before !== undefined &&
  (before.contact.email !== after.contact.email ||
    before.contact.mobileNumber !== after.contact.mobileNumber);

/**
 * The signers' part of a transition, one UPDATE: those that changed, and at send every
 * signer, whose contact details are fixed then (reminders, the audit trail and the
 * executed PDF name the address the Request went to, whatever is upserted later), and a
 * signer's details again when the sender corrects them (ADR 3140) or puts someone else in
 * their place (ADR 3550: the signer_id, and their first view cleared). An
 * unchanged signer's columns are written back as read, which the version check makes
 * current; a delivery status only when the transition changed it, since the reports write
 * it without the Request (ADR 2650) and a stale copy must not undo theirs.
 */
export const signersWrite = (previous: SignatureRequest, request: SignatureRequest, when: Fragment) => {
  const fixContacts = previous.sentAt === null && request.sentAt !== null;
  const changed = new Map(signersChanged(previous, request).map((c) => [c.after, c.before]));
  const had = refsOf(previous);
  const rows = request.signers.filter((s) => (fixContacts && had.has(s.signerRef)) || changed.has(s));
  if (rows.length === 0) return undefined;
  return sql.fragment`
      UPDATE request_signers rs
      SET state = s.state, signed_at = s.signed_at, declined_at = s.declined_at,
          email_delivery = CASE WHEN s.email_changed THEN s.email_delivery::jsonb ELSE rs.email_delivery END,
          sms_delivery = CASE WHEN s.sms_changed THEN s.sms_delivery::jsonb ELSE rs.sms_delivery END,
          link_version = s.link_version, link_issued_at = s.link_issued_at,
          sent_email = CASE WHEN s.fix_contact THEN s.email ELSE rs.sent_email END,
          sent_mobile_number = CASE WHEN s.fix_contact THEN s.mobile_number ELSE rs.sent_mobile_number END,
          contact_fixed = rs.contact_fixed OR s.fix_contact,
          send_email = s.send_email, send_sms = s.send_sms,
          signing_order = s.signing_order, auth_method = s.auth_method, locale = s.locale,
          -- Someone else in the place (ADR 3550): theirs, and nothing the one before did there.
          signer_id = s.signer_id, placed_at_version = s.placed_at_version,
          viewed_at = CASE WHEN s.signer_id = rs.signer_id THEN rs.viewed_at END,
          viewed_ip = CASE WHEN s.signer_id = rs.signer_id THEN rs.viewed_ip END,
          viewed_user_agent = CASE WHEN s.signer_id = rs.signer_id THEN rs.viewed_user_agent END
      FROM ${sql.unnest(
        rows.map((s) => {
          const before = changed.has(s) ? changed.get(s) : s;
          return [
            s.signerRef,
            s.state,
            s.signedAt,
            s.declinedAt,
            toDeliveryJson(s.delivery.email),
            s.delivery.email !== before?.delivery.email,
            toDeliveryJson(s.delivery.sms),
            s.delivery.sms !== before?.delivery.sms,
            s.link.version,
            s.link.issuedAt,
            // At send, or when the sender corrected them (ADR 3140).
            fixContacts || contactChanged(before, s),
            s.contact.email,
            s.contact.mobileNumber,
            s.sendTo.email,
            s.sendTo.sms,
            // A draft's signer's order, check and language (ADR 3290); as read otherwise.
            s.order,
            s.authentication,
            s.locale ?? null,
            s.signerId,
            s.placedAtVersion ?? 0,
          ];
        }),
        [
          'text',
          'text',
          'timestamptz',
          'timestamptz',
          'text',
          'bool',
          'text',
          'bool',
          'int4',
          'timestamptz',
          'bool',
          'text',
          'text',
          'bool',
          'bool',
          'int2',
          'text',
          'text',
          'text',
          'int4',
        ],
      )} AS s(signer_ref, state, signed_at, declined_at, email_delivery, email_changed, sms_delivery, sms_changed,
              link_version, link_issued_at, fix_contact, email, mobile_number, send_email, send_sms,
              signing_order, auth_method, locale, signer_id, placed_at_version)
      WHERE rs.request_id = ${request.id} AND rs.signer_ref = s.signer_ref AND ${when}`;
};
