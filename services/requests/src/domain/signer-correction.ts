import * as E from 'fp-ts/lib/Either.js';
import { isPastExpiry } from './expiry.js';
import type {
  RequestEvent,
  RequestSigner,
  SignatureRequest,
  Transition,
  TransitionError,
} from './request-model.js';
import { notifiableChannels } from './signature-request.js';
import { hasTurn } from './signing-order.js';

/** What a sender changes of one signer of a sent Request; absent parts stay as they are. */
export interface SignerCorrection {
  readonly email?: string;
  readonly mobileNumber?: string;
  readonly sendTo?: { readonly email?: boolean; readonly sms?: boolean };
}

/** One correction as the sender asked it (ADR 3140). */
export interface SignerCorrectionOrder {
  /** The client's signer_id of the signer to correct. */
  readonly signerId: string;
  readonly correction: SignerCorrection;
  /** Send them their link now, when it is their turn. */
  readonly notify: boolean;
  /** Who corrected them, as the audit trail names them: the user's e-mail, else the token's subject. */
  readonly by: string;
}

/**
 * A correction as the executed document's audit trail shows it (ADR 3140): kept from the
 * `request.signer_updated` event, in the statement that stores the correction.
 */
export interface SignerCorrectionRecord {
  readonly signerRef: string;
  readonly at: string;
  readonly by: string;
  readonly previous: Pick<RequestSigner, 'contact' | 'sendTo'>;
  readonly current: Pick<RequestSigner, 'contact' | 'sendTo'>;
  readonly linkReplaced: boolean;
}

/**
 * sent → sent: the sender corrects how one signer who has not signed is reached (ADR 3140),
 * usually after a message bounced. The Request's copy of their details changes (the one
 * fixed at send, ADR 1302; the Site's signer record is not touched). A changed address
 * gives them a new Execution URL, since the old one may have gone to someone else: every
 * older link stops opening, and that channel's delivery status, which was about the old
 * address, is cleared. With `notify`, a signer whose turn it is is sent their link on
 * their channels now (`request.reminded` for them alone, as a reissue sends it; not
 * counted as a reminder); a later turn's signer is told at their turn. Every correction
 * writes `request.signer_updated` (for webhooks); one that changes nothing answers the
 * Request as it is, with no event. The event names what the details were and who changed
 * them: the audit trail keeps that (`SignerCorrectionRecord`). A draft's channels alone
 * are changed by `correctDraftChannels` (ADR 3200).
 */
export const correctSigner = (
  request: SignatureRequest,
  { signerId, correction, notify, by }: SignerCorrectionOrder,
  now: string,
): E.Either<TransitionError, Transition> => {
  if (request.state === 'draft') return correctDraftChannels(request, { signerId, correction, by }, now);
  if (request.state !== 'sent')
    return E.left({ _tag: 'StateConflict', action: 'update_signer', state: request.state });
  if (isPastExpiry(request, now)) return E.left({ _tag: 'RequestExpired', expiresAt: request.expiresAt! });
  const signer = request.signers.find((s) => s.signerId === signerId);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner', signerRef: signerId });
  if (signer.state !== 'pending')
    return E.left({ _tag: 'SignerNotPending', signerRef: signer.signerRef, state: signer.state });

  const contact = {
    email: correction.email ?? signer.contact.email,
    mobileNumber: correction.mobileNumber ?? signer.contact.mobileNumber,
  };
  const sendTo = {
    email: correction.sendTo?.email ?? signer.sendTo.email,
    sms: correction.sendTo?.sms ?? signer.sendTo.sms,
  };
  const emailChanged = contact.email !== signer.contact.email;
  const mobileChanged = contact.mobileNumber !== signer.contact.mobileNumber;
  const channelsChanged = sendTo.email !== signer.sendTo.email || sendTo.sms !== signer.sendTo.sms;
  if (!emailChanged && !mobileChanged && !channelsChanged) return E.right({ request, events: [] });

  const corrected: RequestSigner = {
    ...signer,
    contact,
    sendTo,
    delivery: {
      email: emailChanged ? null : signer.delivery.email,
      sms: mobileChanged ? null : signer.delivery.sms,
    },
    link: emailChanged || mobileChanged ? { version: signer.link.version + 1, issuedAt: now } : signer.link,
  };
  const after: SignatureRequest = {
    ...request,
    signers: request.signers.map((s) => (s.signerRef === signer.signerRef ? corrected : s)),
    updatedAt: now,
  };
  const channels = notifiableChannels(corrected);
  const told = notify && hasTurn(after, corrected) && (channels.email || channels.sms);
  const updated: RequestEvent = {
    type: 'request.signer_updated',
    signerRef: signer.signerRef,
    linkReplaced: corrected.link !== signer.link,
    previous: { contact: signer.contact, sendTo: signer.sendTo },
    by,
  };
  return E.right({
    request: after,
    events: told ? [updated, { type: 'request.reminded', notify: [corrected] }] : [updated],
  });
};

/**
 * draft → draft: a draft's signer gets other channels (ADR 3200). Its address and number
 * are the Site's record until it is sent (ADR 1302), so a new one here is refused: the
 * Site's signer is corrected instead (`PUT /v1.1/sites/:id/signers/:signer_id`). Nothing
 * is sent; `request.signer_updated` says what changed, as for a sent Request.
 */
const correctDraftChannels = (
  request: SignatureRequest,
  { signerId, correction, by }: Omit<SignerCorrectionOrder, 'notify'>,
  now: string,
): E.Either<TransitionError, Transition> => {
  if (correction.email !== undefined || correction.mobileNumber !== undefined)
    return E.left({ _tag: 'StateConflict', action: 'update_signer', state: request.state });
  if (isPastExpiry(request, now)) return E.left({ _tag: 'RequestExpired', expiresAt: request.expiresAt! });
  const signer = request.signers.find((s) => s.signerId === signerId);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner', signerRef: signerId });
  const sendTo = {
    email: correction.sendTo?.email ?? signer.sendTo.email,
    sms: correction.sendTo?.sms ?? signer.sendTo.sms,
  };
  if (sendTo.email === signer.sendTo.email && sendTo.sms === signer.sendTo.sms)
    return E.right({ request, events: [] });
  return E.right({
    request: {
      ...request,
      signers: request.signers.map((s) => (s.signerRef === signer.signerRef ? { ...s, sendTo } : s)),
      updatedAt: now,
    },
    events: [
      {
        type: 'request.signer_updated',
        signerRef: signer.signerRef,
        linkReplaced: false,
        previous: { contact: signer.contact, sendTo: signer.sendTo },
        by,
      },
    ],
  });
};
