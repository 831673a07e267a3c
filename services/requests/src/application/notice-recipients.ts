// Who a message about a Request reaches: its signers, and for the notices that end it the
// creating user (ADR 2003) and the carbon copies (ADR 3230), each as the notifier takes them.
import { ccRef, resolveLocale, SENDER_REF, type NotifiedSigner } from '@esign/contracts';
import { hasChannel } from '../domain/channels.js';
import {
  notifiableChannels,
  type RequestSigner,
  type SignatureRequest,
} from '../domain/signature-request.js';
import type { RequestPageUrl } from './deps.js';
import type { ExecutionUrl } from './views.js';

/**
 * What the notifier needs to reach one signer. `send_to` says which messages to send:
 * the channels the client chose that have an address (spec rule 3: no e-mail without
 * an e-mail address).
 */
export const notified = (
  request: SignatureRequest,
  signer: RequestSigner,
  executionUrl: ExecutionUrl,
): NotifiedSigner => {
  const channels = notifiableChannels(signer);
  return {
    signer_id: signer.signerId,
    signer_ref: signer.signerRef,
    email: signer.contact.email,
    mobile_number: signer.contact.mobileNumber,
    send_to: { email: channels.email, mobile_number: channels.sms },
    request_url: executionUrl(request.id, signer.signerRef, signer.link.version),
    locale: resolveLocale(signer.locale, request.siteLocale),
  };
};

/** A notice's recipient, reached by e-mail only. */
export const notifiedByEmail = (
  request: SignatureRequest,
  signer: RequestSigner,
  executionUrl: ExecutionUrl,
): NotifiedSigner => ({
  ...notified(request, signer, executionUrl),
  send_to: { email: true, mobile_number: false },
});

/**
 * A signer told of a decline (ADR 2002): by the channels they were invited by, a text
 * included (ADR 3500); one invited by no channel (embedded signing) by e-mail, as before.
 */
export const toldOfDecline = (
  request: SignatureRequest,
  signer: RequestSigner,
  executionUrl: ExecutionUrl,
): NotifiedSigner =>
  hasChannel(signer)
    ? notified(request, signer, executionUrl)
    : notifiedByEmail(request, signer, executionUrl);

/**
 * The creating user as one more recipient of a notice (ADR 2003), by e-mail only, with the
 * Request's page in the web application as their link; none when no address was recorded.
 */
export const creatorOf = (
  request: SignatureRequest,
  pageUrl: RequestPageUrl | undefined,
): NotifiedSigner[] => {
  const email = request.creator?.email;
  if (email === undefined || email === null || pageUrl === undefined) return [];
  return [
    {
      signer_id: email,
      signer_ref: SENDER_REF,
      email,
      mobile_number: null,
      send_to: { email: true, mobile_number: false },
      request_url: pageUrl(request.id),
      // The account's user reads the Site's language (ADR 2320), else English.
      locale: resolveLocale(undefined, request.siteLocale),
    },
  ];
};

/**
 * The Request's carbon copies as recipients of its completion (ADR 3230): by e-mail, each
 * under its reserved reference (`cc.1`, …, never a signer's), with a link to a copy; an
 * address a signer is already told at is not told twice.
 */
export const carbonCopies = (
  request: SignatureRequest,
  copyLink: (ref: string) => string,
): NotifiedSigner[] => {
  const signers = new Set(request.signers.map((s) => s.contact.email));
  return (request.cc ?? []).flatMap((email, i) =>
    signers.has(email)
      ? []
      : [
          {
            signer_id: email,
            signer_ref: ccRef(i),
            email,
            mobile_number: null,
            send_to: { email: true, mobile_number: false },
            request_url: copyLink(ccRef(i)),
            // Not a signer: the Site's language (ADR 2320), else English.
            locale: resolveLocale(undefined, request.siteLocale),
          },
        ],
  );
};
