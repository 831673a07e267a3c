import * as E from 'fp-ts/lib/Either.js';
import type { SignerAuthentication, SignerUpdatePart } from '@esign/contracts';
import { isPastExpiry } from './expiry.js';
import type {
  RequestEvent,
  RequestSigner,
  SignatureRequest,
  Transition,
  TransitionError,
} from './request-model.js';
import { fieldError, type FieldError } from './paths.js';
import { checkAuthentication, type Challenge } from './signer-authentication.js';
import { notifiableChannels } from './channels.js';
import { hasTurn } from './signing-order.js';

/** What a sender changes of one signer of a sent Request; absent parts stay as they are. */
export interface SignerCorrection {
  readonly email?: string;
  readonly mobileNumber?: string;
  readonly sendTo?: { readonly email?: boolean; readonly sms?: boolean };
  /** A draft's only (ADR 3290): its place in the signing order; null: none. */
  readonly order?: number | null;
  /** A draft's only: its check before signing, the access code hashed by the caller; null: none. */
  readonly authentication?: {
    readonly entry: SignerAuthentication;
    readonly challenge: Challenge;
  } | null;
  /** A draft's only: the language to write to them in; null: the Site's. */
  readonly locale?: string | null;
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
 * Whether a `request.signer_updated` that changed `changed` goes into the audit trail: a
 * change of how the signer is reached, or of who signs there (ADR 3550), does; a draft's
 * signer's order, check or language alone (ADR 3290) does not. Events written before ADR 3290 lack `changed`: all were.
 */
export const isContactCorrection = (changed: readonly SignerUpdatePart[] | undefined): boolean =>
  changed === undefined ||
  changed.some(
    (part) => part === 'email' || part === 'mobile_number' || part === 'send_to' || part === 'signer_id',
  );

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
  /** Someone else took the signer's place (ADR 3550): who was there, and who is now. */
  readonly replaced?: { readonly previous: string; readonly current: string };
  /** The signer asked for it from their page (ADR 3560): where they acted from. */
  readonly from?: { readonly ip: string; readonly userAgent: string };
}

/** Where the signer in `signerRef`'s place acted from when they asked for their correction. */
export interface CorrectionEvidence {
  readonly signerRef: string;
  readonly ip: string;
  readonly userAgent: string;
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
 * them: the audit trail keeps that (`SignerCorrectionRecord`). A draft's signer is changed
 * by `correctDraftSigner` (ADRs 3200, 3290).
 */
export const correctSigner = (
  request: SignatureRequest,
  { signerId, correction, notify, by }: SignerCorrectionOrder,
  now: string,
): E.Either<TransitionError, Transition> => {
  if (request.state === 'draft') return correctDraftSigner(request, { signerId, correction, by }, now);
  if (request.state !== 'sent')
    return E.left({ _tag: 'StateConflict', action: 'update_signer', state: request.state });
  if (
    correction.order !== undefined ||
    correction.authentication !== undefined ||
    correction.locale !== undefined
  )
    return E.left({ _tag: 'StateConflict', action: 'update_signer_settings', state: request.state });
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
    changed: [
      ...(emailChanged ? (['email'] as const) : []),
      ...(mobileChanged ? (['mobile_number'] as const) : []),
      ...(channelsChanged ? (['send_to'] as const) : []),
    ],
  };
  return E.right({
    request: after,
    events: told
      ? [
          updated,
          // A corrected address or number hears of the Request for the first time (ADR 3420).
          {
            type: 'request.reminded',
            notify: [corrected],
            ...(updated.linkReplaced && { readdressed: true }),
          },
        ]
      : [updated],
  });
};

/**
 * The authentication rules of the create (`checkAuthentication`) for a draft's signer:
 * the contact detail a one-time code goes to must be the Site's, which is corrected
 * elsewhere, so its absence is named at `authentication.method`.
 */
const authenticationProblems = (signer: RequestSigner, entry: SignerAuthentication): FieldError[] =>
  checkAuthentication({ signer_id: signer.signerId, authentication: entry }, signer.contact, '').errors.map(
    (e) =>
      e.path.startsWith('signer.')
        ? fieldError(
            'authentication.method',
            `${entry.method} sends the code to the signer's ${e.path === 'signer.email' ? 'e-mail address' : 'mobile number'}, and they have none: give the Site's signer one first (PUT /v1.1/sites/:id/signers/:signer_id)`,
          )
        : e,
  );

/**
 * draft → draft: a draft's signer gets other channels (ADR 3200), another place in the
 * signing order, another check before signing or another language (ADR 3290), each
 * replaced and null removing it. Its address and number are the Site's record until it is
 * sent (ADR 1302), so a new one here is refused: the Site's signer is corrected instead
 * (`PUT /v1.1/sites/:id/signers/:signer_id`). An order is not checked against the others'
 * here, so a draft can move into or out of signing in order one signer at a time; the
 * send refuses one where some have an order and some do not. A new access code always
 * counts as a change (only its hash is kept). Nothing is sent; `request.signer_updated`
 * says what changed, as for a sent Request.
 */
const correctDraftSigner = (
  request: SignatureRequest,
  { signerId, correction, by }: Omit<SignerCorrectionOrder, 'notify'>,
  now: string,
): E.Either<TransitionError, Transition> => {
  if (correction.email !== undefined || correction.mobileNumber !== undefined)
    return E.left({ _tag: 'StateConflict', action: 'update_signer', state: request.state });
  if (isPastExpiry(request, now)) return E.left({ _tag: 'RequestExpired', expiresAt: request.expiresAt! });
  const signer = request.signers.find((s) => s.signerId === signerId);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner', signerRef: signerId });
  const auth = correction.authentication;
  if (auth != null) {
    const errors = authenticationProblems(signer, auth.entry);
    if (errors.length > 0) return E.left({ _tag: 'InvalidRequest', errors });
  }
  const sendTo = {
    email: correction.sendTo?.email ?? signer.sendTo.email,
    sms: correction.sendTo?.sms ?? signer.sendTo.sms,
  };
  const order = correction.order === undefined ? signer.order : correction.order;
  const authentication = auth === undefined ? signer.authentication : (auth?.entry.method ?? null);
  const locale = correction.locale === undefined ? (signer.locale ?? null) : correction.locale;
  const changed: SignerUpdatePart[] = [
    ...(sendTo.email === signer.sendTo.email && sendTo.sms === signer.sendTo.sms
      ? []
      : (['send_to'] as const)),
    ...(order === signer.order ? [] : (['order'] as const)),
    ...(authentication === signer.authentication && auth?.entry.access_code === undefined
      ? []
      : (['authentication'] as const)),
    ...(locale === (signer.locale ?? null) ? [] : (['locale'] as const)),
  ];
  if (changed.length === 0) return E.right({ request, events: [] });
  const corrected: RequestSigner = { ...signer, sendTo, order, authentication, locale };
  return E.right({
    request: {
      ...request,
      signers: request.signers.map((s) => (s === signer ? corrected : s)),
      updatedAt: now,
    },
    events: [
      {
        type: 'request.signer_updated',
        signerRef: signer.signerRef,
        linkReplaced: false,
        previous: { contact: signer.contact, sendTo: signer.sendTo },
        by,
        changed,
      },
    ],
    // Their check replaced, or removed (null), with the change (ADR 3290).
    ...(changed.includes('authentication') && {
      challenges: [{ signerRef: signer.signerRef, challenge: auth?.challenge ?? null }],
    }),
  });
};
