import type { CreateRequestBody, SignerEntry } from '@esign/contracts';
import type { Contact } from './signer.js';
import type { SignatureRequest } from './signature-request.js';

/**
 * A Request copied into a new draft (ADR 3330), as the create body that makes it: the
 * same contracts, signers (their channels, signing order, check and language), fields
 * with their signers and values, render_data, copies, redirect and reminder interval;
 * not its expiry, state, history or anything signed. The copy is then made by the
 * create's own rules, so it is exactly what a client could have asked for.
 */

/**
 * Stands in for a signer's access code in the create's rules, which need one: the
 * source's code is stored hashed and never known, and the copy's challenge is the source's
 * hash (see `copyRequest`), so this value is neither hashed nor kept.
 */
export const COPIED_ACCESS_CODE = 'kept-from-the-source';

const contactEntry = (contact: Contact) => ({
  ...(contact.email !== null && { email: contact.email }),
  ...(contact.mobileNumber !== null && { mobile_number: contact.mobileNumber }),
});

/**
 * The create body of a copy of `source`. A signer is named by their signer_id, so the
 * copy reaches them at the Site's details as they are now (a correction made since is
 * followed); only a signer the Site no longer has a record of (deleted since, ADR 3200) is
 * given the source's details, which records them again.
 */
export const copyBody = (
  source: SignatureRequest,
  siteContacts: ReadonlyMap<string, Contact>,
  testMode: boolean | undefined,
): CreateRequestBody => ({
  contracts: source.contracts.map((c) => c.id),
  signers: source.signers.map((s): SignerEntry => ({
    signer_id: s.signerId,
    ...(siteContacts.has(s.signerId) ? {} : { signer: contactEntry(s.contact) }),
    send_to: { email: s.sendTo.email, mobile_number: s.sendTo.sms },
    ...(s.order !== null && { order: s.order }),
    ...(s.authentication !== null && {
      authentication:
        s.authentication === 'access_code'
          ? { method: 'access_code', access_code: COPIED_ACCESS_CODE }
          : { method: s.authentication },
    }),
    ...(s.locale !== undefined && s.locale !== null && { locale: s.locale }),
  })),
  fields: source.fields.map((f) => ({
    name: f.name,
    ...(f.defaultValue !== null && { default_value: f.defaultValue }),
    ...(f.assignedTo !== null && { assigned_to: f.assignedTo }),
  })),
  ...(Object.keys(source.renderData).length > 0 && { render_data: { ...source.renderData } }),
  ...(source.cc !== undefined && source.cc.length > 0 && { cc: [...source.cc] }),
  ...(source.message !== undefined && source.message !== null && { message: source.message }),
  ...(source.title !== undefined && source.title !== null && { title: source.title }),
  ...(source.subject !== undefined && source.subject !== null && { subject: source.subject }),
  ...(source.allowReassign === true && { allow_reassign: true }),
  ...(source.redirectUrl !== null && { redirect_url: source.redirectUrl }),
  ...(source.reminderIntervalDays !== null && { reminder_interval_days: source.reminderIntervalDays }),
  test_mode: testMode ?? source.testMode,
});
