import * as E from 'fp-ts/lib/Either.js';
import { isEmail, nonUsNanpReason, type FieldError, type SignerEntry } from '@esign/contracts';

/** How to reach a signer. Mobile numbers are US numbers in the spec's form: 1 + 10 digits. */
export interface Contact {
  readonly email: string | null;
  readonly mobileNumber: string | null;
}

/** A signer of a site, known by the client's `signer_id`; upserted by every Request that names it. */
export interface SiteSigner extends Contact {
  readonly siteId: number;
  readonly signerId: string;
}

export const NO_CONTACT: Contact = { email: null, mobileNumber: null };

/**
 * What a `signer_id` says about how to reach its signer: an e-mail address, or a
 * 10-digit US mobile number (stored with its country prefix 1). The spec gives the
 * mobile form as exactly 10 digits, so an 11-digit id or one with separators stays an
 * opaque identifier: a customer number must not become a phone number by accident.
 */
export const detectContact = (signerId: string): Contact => {
  const trimmed = signerId.trim();
  if (isEmail(trimmed)) return { email: trimmed.toLowerCase(), mobileNumber: null };
  if (/^\d{10}$/.test(trimmed)) return { email: null, mobileNumber: `1${trimmed}` };
  return NO_CONTACT;
};

/**
 * Why a `signer_id` the spec reads as a mobile number (10 digits) cannot be one: not a
 * valid NANP number, or a Canadian or Caribbean one (SMS goes to US numbers only; issue
 * #18, MEDIUM 6). Undefined for every other id.
 */
export const mobileSignerIdProblem = (signerId: string): string | undefined => {
  const trimmed = signerId.trim();
  if (!/^\d{10}$/.test(trimmed)) return undefined;
  const reason = nonUsNanpReason(trimmed);
  return reason === undefined ? undefined : `is read as a mobile number and ${reason}`;
};

/**
 * The contact details a signer has after this call: details given in `signer` win,
 * then what the `signer_id` itself reveals, then what the site already knew. Upserting
 * never forgets an address merely because a later Request did not repeat it.
 */
export const resolveContact = (entry: SignerEntry, stored: Contact | undefined): Contact => {
  const detected = detectContact(entry.signer_id);
  return {
    email: entry.signer?.email ?? detected.email ?? stored?.email ?? null,
    mobileNumber: entry.signer?.mobile_number ?? detected.mobileNumber ?? stored?.mobileNumber ?? null,
  };
};

/** A site's signer as stored, with when it was first named and last changed. */
export interface StoredSiteSigner extends SiteSigner {
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What an upsert does to one detail: set it, remove it, or keep what is stored. */
export type DetailChange = { readonly set: string } | 'remove' | 'keep';

/** One signer's upsert (ADR 3200): each detail set, removed or kept. */
export interface SiteSignerChange {
  readonly siteId: number;
  readonly signerId: string;
  readonly email: DetailChange;
  readonly mobileNumber: DetailChange;
}

/**
 * What `PUT /v1.1/sites/:id/signers/:signer_id` does to each detail: the create's rule
 * (given, then what the `signer_id` is, then what is stored: `resolveContact`), and `null`
 * removes a detail, except the one the `signer_id` itself is, which would come back with
 * the next create naming it. Errors name the body's field.
 */
export const siteSignerChange = (
  siteId: number,
  signerId: string,
  given: { readonly email?: string | null; readonly mobile_number?: string | null },
): E.Either<readonly FieldError[], SiteSignerChange> => {
  const detected = detectContact(signerId);
  const errors: FieldError[] = [];
  const notMobile = mobileSignerIdProblem(signerId);
  if (notMobile !== undefined) errors.push({ path: 'signer_id', message: notMobile });
  const change = (value: string | null | undefined, fromId: string | null, path: string): DetailChange => {
    if (value === null) {
      if (fromId !== null) errors.push({ path, message: 'cannot be removed: the signer_id is this detail' });
      return 'remove';
    }
    const set = value ?? fromId;
    return set === null ? 'keep' : { set };
  };
  const email = change(given.email, detected.email, 'signer.email');
  const mobileNumber = change(given.mobile_number, detected.mobileNumber, 'signer.mobile_number');
  return errors.length > 0 ? E.left(errors) : E.right({ siteId, signerId, email, mobileNumber });
};
