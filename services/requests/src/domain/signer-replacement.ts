import * as E from 'fp-ts/lib/Either.js';
import type { ReplaceRequestSignerBody } from '@esign/contracts';
import { isPastExpiry } from './expiry.js';
import { fieldError, type FieldError } from './paths.js';
import type {
  AskedBy,
  RequestEvent,
  RequestSigner,
  SignatureRequest,
  Transition,
  TransitionError,
} from './request-model.js';
import { hasChannel, notifiableChannels } from './channels.js';
import { mobileSignerIdProblem, resolveContact, type Contact } from './signer.js';
import { newChallenge } from './signer-authentication.js';
import { hasTurn, orderReached } from './signing-order.js';

/** Someone else to sign in the place of a signer of a sent Request (ADR 3550), as the sender gave them. */
export interface SignerReplacement {
  /** The client's signer_id of the signer replaced. */
  readonly signerId: string;
  /** The new signer, as a create's `signers[]` entry names one. */
  readonly by: Omit<ReplaceRequestSignerBody, 'notify' | 'message'>;
  /** What the Site already knows of the new signer_id, if anything. */
  readonly stored: Contact | undefined;
  /** The place's access code, hashed, kept for the new signer; null when its check is not one. */
  readonly accessCodeHash: string | null;
  /** Send them their link now, when it is their turn. */
  readonly notify: boolean;
  /** Said to them in that invitation instead of the Request's message, when given. */
  readonly message?: string | undefined;
  /** Who replaced them, as the audit trail names them: the user's e-mail, else the token's subject. */
  readonly replacedBy: string;
  /**
   * The signer asked for it themselves (ADR 3560): they are not told what they did, and
   * the new signer's invitation says who asked and their note (ADR 3630).
   */
  readonly askedBy?: AskedBy;
}

/** The contact a one-time code goes to, which the new signer must have when the place has that check. */
const checkProblems = (method: RequestSigner['authentication'], contact: Contact): FieldError[] =>
  method === 'email_otp' && contact.email === null
    ? [
        fieldError(
          'signer.email',
          'required: this signer’s check before signing e-mails a code to this address',
        ),
      ]
    : method === 'sms_otp' && contact.mobileNumber === null
      ? [
          fieldError(
            'signer.mobile_number',
            'required: this signer’s check before signing texts a code to this number',
          ),
        ]
      : [];

/**
 * sent → sent: someone else signs in the place of a signer who has not signed (ADR 3550),
 * as DocuSign's and Acrobat Sign's "replace recipient" do. The place keeps its reference,
 * signing order, check before signing and language; it gets the new signer_id, their
 * contact resolved as a create resolves it (the Site's signer upserted with the change),
 * the channels given (else the place's), and a new link: every older one, which went to
 * the replaced signer, stops opening. What the replaced signer had done there (opened it,
 * delivery statuses, a passed check) is cleared; the fields that were theirs are the new
 * signer's. `request.signer_updated` says so (`changed` has `signer_id`, `previous` who it
 * was); with `notify`, the new signer is invited at once when it is their turn, and the
 * replaced one, when they had been told of the Request, is told they need not sign.
 */
export const replaceSigner = (
  request: SignatureRequest,
  order: SignerReplacement,
  now: string,
): E.Either<TransitionError, Transition> => {
  if (request.state !== 'sent')
    return E.left({ _tag: 'StateConflict', action: 'replace_signer', state: request.state });
  if (isPastExpiry(request, now)) return E.left({ _tag: 'RequestExpired', expiresAt: request.expiresAt! });
  const signer = request.signers.find((s) => s.signerId === order.signerId);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner', signerRef: order.signerId });
  if (signer.state !== 'pending')
    return E.left({ _tag: 'SignerNotPending', signerRef: signer.signerRef, state: signer.state });

  const newId = order.by.signer_id;
  const idProblem =
    newId === signer.signerId
      ? 'is the signer being replaced: to change how they are reached, correct their contact (PATCH /v1.1/requests/:id/signers/:signer_id)'
      : request.signers.some((s) => s.signerId === newId)
        ? `"${newId}" is already a signer of this Request`
        : mobileSignerIdProblem(newId);
  if (idProblem !== undefined)
    return E.left({ _tag: 'InvalidRequest', errors: [fieldError('signer_id', idProblem)] });
  const contact = resolveContact(order.by, order.stored);
  const errors = checkProblems(signer.authentication, contact);
  if (errors.length > 0) return E.left({ _tag: 'InvalidRequest', errors });

  const sendTo = {
    email: order.by.send_to?.email ?? signer.sendTo.email,
    sms: order.by.send_to?.mobile_number ?? signer.sendTo.sms,
  };
  const replacement: RequestSigner = {
    ...signer,
    signerId: newId,
    contact,
    sendTo,
    viewedAt: null,
    delivery: { email: null, sms: null },
    link: { version: signer.link.version + 1, issuedAt: now },
    placedAtVersion: signer.link.version + 1,
  };
  const after: SignatureRequest = {
    ...request,
    signers: request.signers.map((s) => (s === signer ? replacement : s)),
    fields: request.fields.some((f) => f.assignedTo === signer.signerId)
      ? request.fields.map((f) => (f.assignedTo === signer.signerId ? { ...f, assignedTo: newId } : f))
      : request.fields,
    updatedAt: now,
  };
  const channels = notifiableChannels(replacement);
  const told = order.notify && hasTurn(after, replacement) && (channels.email || channels.sms);
  // The one replaced, when they had been told of the Request, hears that they need not sign.
  const toldBefore =
    order.notify && order.askedBy === undefined && hasChannel(signer) && orderReached(request, signer);
  const updated: RequestEvent = {
    type: 'request.signer_updated',
    signerRef: signer.signerRef,
    linkReplaced: true,
    previous: { signerId: signer.signerId, contact: signer.contact, sendTo: signer.sendTo },
    by: order.replacedBy,
    changed: [
      'signer_id',
      ...(contact.email === signer.contact.email ? [] : (['email'] as const)),
      ...(contact.mobileNumber === signer.contact.mobileNumber ? [] : (['mobile_number'] as const)),
      ...(sendTo.email === signer.sendTo.email && sendTo.sms === signer.sendTo.sms
        ? []
        : (['send_to'] as const)),
    ],
    ...(toldBefore && { previousNotified: true as const }),
  };
  // The new signer hears of the Request for the first time: an invitation (ADR 3420).
  const invitation: RequestEvent = {
    type: 'request.reminded',
    notify: [replacement],
    readdressed: true,
    ...(order.message !== undefined && { message: order.message }),
    ...(order.askedBy !== undefined && { askedBy: order.askedBy }),
  };
  const notice: RequestEvent = { type: 'notice.replaced', replaced: signer };
  return E.right({
    request: after,
    events: [updated, ...(told ? [invitation] : []), ...(toldBefore ? [notice] : [])],
    siteSigners: [{ siteId: request.siteId, signerId: newId, ...contact }],
    // The check starts again for them: the same method (and access code), no attempts, not passed.
    challenges:
      signer.authentication === null
        ? []
        : [
            {
              signerRef: signer.signerRef,
              challenge: newChallenge(signer.authentication, order.accessCodeHash),
            },
          ],
  });
};
