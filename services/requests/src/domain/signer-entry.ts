import type { SignerEntry } from '@esign/contracts';
import { fieldError, type FieldError } from './paths.js';
import { mobileSignerIdProblem, resolveContact, type Contact, type SiteSigner } from './signer.js';
import { checkAuthentication } from './signer-authentication.js';
import type { RequestSigner } from './signature-request.js';

/** One signer entry as a Request's signer and the Site's signer it upserts, or why it is neither. */
export type SignerFromEntry =
  | { readonly errors: readonly FieldError[]; readonly signer?: undefined }
  | {
      readonly errors: readonly FieldError[];
      readonly signer: RequestSigner;
      readonly siteSigner: SiteSigner;
    };

/**
 * A `signers[]` entry of the create body, or the body of an added signer (ADR 3280), made
 * into a pending signer: its contact resolved against what the Site knows (`stored`),
 * its authentication checked. `path` is where the entry is in the body ('' for a whole
 * body); errors name the entry's fields under it. Without a signer when the signer_id
 * cannot be one.
 */
export const signerFromEntry = (
  entry: SignerEntry,
  stored: Contact | undefined,
  signerRef: string,
  siteId: number,
  path: string,
): SignerFromEntry => {
  const under = (member: string) => (path === '' ? member : `${path}.${member}`);
  const notMobile = mobileSignerIdProblem(entry.signer_id);
  if (notMobile !== undefined) return { errors: [fieldError(under('signer_id'), notMobile)] };
  const contact = resolveContact(entry, stored);
  const authentication = checkAuthentication(entry, contact, path);
  return {
    errors: authentication.errors,
    siteSigner: { siteId, signerId: entry.signer_id, ...contact },
    signer: {
      signerId: entry.signer_id,
      signerRef,
      contact,
      sendTo: { email: entry.send_to?.email ?? false, sms: entry.send_to?.mobile_number ?? false },
      order: entry.order ?? null,
      authentication: authentication.method,
      viewedAt: null,
      locale: entry.locale ?? null,
      state: 'pending',
      signedAt: null,
      declinedAt: null,
      delivery: { email: null, sms: null },
      link: { version: 0, issuedAt: null },
    },
  };
};
