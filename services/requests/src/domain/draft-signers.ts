import * as E from 'fp-ts/lib/Either.js';
import { LIMITS, type SignerEntry } from '@esign/contracts';
import { isPastExpiry } from './expiry.js';
import { fieldError, type FieldError } from './paths.js';
import type { SignatureRequest, Transition, TransitionError } from './request-model.js';
import type { Contact } from './signer.js';
import type { Challenge } from './signer-authentication.js';
import { signerFromEntry } from './signer-entry.js';
import { isOrdered } from './signing-order.js';

/** A signer to add to a draft, as the sender gave it, with what the caller prepared for it. */
export interface SignerToAdd {
  readonly entry: SignerEntry;
  /** What the Site already knows of this signer_id, if anything. */
  readonly stored: Contact | undefined;
  /** A fresh reference: what their Execution URL names. */
  readonly signerRef: string;
  /** Their check before signing (access code hashed), when the entry asks for one. */
  readonly challenge: Challenge | null;
}

/** Why a draft cannot take one more signer, or nothing. */
const openForSigners = (
  request: SignatureRequest,
  action: 'add_signer' | 'remove_signer',
  now: string,
): TransitionError | undefined => {
  if (request.state !== 'draft') return { _tag: 'StateConflict', action, state: request.state };
  if (isPastExpiry(request, now)) return { _tag: 'RequestExpired', expiresAt: request.expiresAt! };
  return undefined;
};

/**
 * draft → draft: one more signer, by the create's rules for a `signers[]` entry (ADR
 * 3280): their contact resolved against the Site's record, the Site's signer upserted with
 * the change, their authentication checked, and a fresh `signer_ref`, so their Execution
 * URL (live after the send) is in the answer. Their signer_id must be new to the Request,
 * and their `order` must match the others': given when they have one, absent when they
 * have none. Added last. Errors name the body's fields.
 */
export const addDraftSigner = (
  request: SignatureRequest,
  add: SignerToAdd,
  now: string,
): E.Either<TransitionError, Transition> => {
  const closed = openForSigners(request, 'add_signer', now);
  if (closed !== undefined) return E.left(closed);
  const { entry } = add;
  const errors: FieldError[] = [];
  if (request.signers.some((s) => s.signerId === entry.signer_id))
    errors.push(fieldError('signer_id', `"${entry.signer_id}" is already a signer of this Request`));
  else if (request.signers.length >= LIMITS.signers)
    errors.push(fieldError('signer_id', `cannot be added: a Request has at most ${LIMITS.signers} signers`));
  const ordered = isOrdered(request);
  if (ordered && entry.order === undefined)
    errors.push(
      fieldError(
        'order',
        'required: the other signers have an order, so every signer needs one (equal numbers sign in parallel)',
      ),
    );
  if (!ordered && entry.order !== undefined)
    errors.push(
      fieldError(
        'order',
        'must be absent: the other signers have no order, so this Request is not signed in order',
      ),
    );
  const made = signerFromEntry(entry, add.stored, add.signerRef, request.siteId, '');
  errors.push(...made.errors);
  if (errors.length > 0 || made.signer === undefined) return E.left({ _tag: 'InvalidRequest', errors });
  return E.right({
    request: { ...request, signers: [...request.signers, made.signer], updatedAt: now },
    events: [{ type: 'request.signer_added', signerRef: add.signerRef }],
    siteSigners: [made.siteSigner],
    challenges: add.challenge === null ? [] : [{ signerRef: add.signerRef, challenge: add.challenge }],
  });
};

/**
 * draft → draft: one signer fewer (ADR 3280). The fields that were theirs are left with no
 * signer, which the send refuses until they have one (the event names them). The only
 * signer is kept: a Request has at least one. Their `signer_ref` is never used again.
 */
export const removeDraftSigner = (
  request: SignatureRequest,
  signerId: string,
  now: string,
): E.Either<TransitionError, Transition> => {
  const closed = openForSigners(request, 'remove_signer', now);
  if (closed !== undefined) return E.left(closed);
  const signer = request.signers.find((s) => s.signerId === signerId);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner', signerRef: signerId });
  if (request.signers.length === 1) return E.left({ _tag: 'LastSigner' });
  const unassignedFields = request.fields.filter((f) => f.assignedTo === signerId).map((f) => f.name);
  return E.right({
    request: {
      ...request,
      signers: request.signers.filter((s) => s !== signer),
      // The very array when none was theirs: the write then leaves the fields alone.
      fields:
        unassignedFields.length === 0
          ? request.fields
          : request.fields.map((f) => (f.assignedTo === signerId ? { ...f, assignedTo: null } : f)),
      updatedAt: now,
    },
    events: [
      {
        type: 'request.signer_removed',
        signer: { signerId: signer.signerId, signerRef: signer.signerRef },
        unassignedFields,
      },
    ],
  });
};
