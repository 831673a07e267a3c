import * as E from 'fp-ts/lib/Either.js';
import { isEmail } from '@esign/contracts';
import type { RequestSigner, SignatureRequest, Transition, TransitionError } from './request-model.js';
import { hasChannel } from './channels.js';
import type { Contact } from './signer.js';
import type { SubmissionProblem } from './signing.js';
import { replaceSigner } from './signer-replacement.js';
import { hasTurn } from './signing-order.js';

/**
 * Whether a signer may ask someone else to sign in their place from their page (ADR 3560):
 * the sender allowed it on the Request, it is their turn on a sent Request, and they were
 * sent their link by e-mail or SMS (an embedded signer signs inside the client's own
 * application, which decides who signs). Not when their check before signing is an access
 * code, which the sender gave them and the new signer would not have, nor a code by text,
 * which needs a number the new signer did not give; a code by e-mail goes to the new address.
 */
export const canReassign = (request: SignatureRequest, signer: RequestSigner): boolean =>
  request.allowReassign === true &&
  request.state === 'sent' &&
  signer.state === 'pending' &&
  hasTurn(request, signer) &&
  hasChannel(signer) &&
  (signer.authentication === null || signer.authentication === 'email_otp');

/**
 * The address a signer typed for whom should sign in their place: an e-mail address, not
 * their own, and not another signer's of this Request. Answered as the new signer's
 * `signer_id`, trimmed and in lower case, as a create keeps an address.
 */
export const checkReassignEmail = (
  request: SignatureRequest,
  signer: RequestSigner,
  raw: string | undefined,
): E.Either<SubmissionProblem[], string> => {
  const email = (raw ?? '').trim().toLowerCase();
  const problem = (message: string) => E.left([{ target: { _tag: 'ReassignEmail' } as const, message }]);
  if (email === '') return problem('enter the e-mail address of the person who should sign');
  if (!isEmail(email)) return problem('must be an e-mail address, like name@example.com');
  const same = (s: RequestSigner) =>
    s.signerId.toLowerCase() === email || s.contact.email?.toLowerCase() === email;
  if (same(signer)) return problem('is your own address: give the address of the person who should sign');
  if (request.signers.some(same)) return problem('is already a signer of this request');
  return E.right(email);
};

/**
 * sent → sent: the signer asked `email` to sign in their place (ADR 3560). The same change
 * as the sender's replacement (ADR 3550): the place, its fields and order kept, a new link,
 * the Site's signer upserted, the new signer invited by e-mail at once; the audit trail
 * and `request.signer_updated` name the signer as who asked. They are not told of it; the
 * creating user, when their address is known, is (`notice.reassigned`).
 */
export const reassignBySigner = (
  request: SignatureRequest,
  signer: RequestSigner,
  email: string,
  stored: Contact | undefined,
  now: string,
): E.Either<TransitionError, Transition> =>
  E.map((t: Transition): Transition =>
    // The creating user, when their address is known, is told who asked whom (as of a decline).
    request.creator?.email == null
      ? t
      : { ...t, events: [...t.events, { type: 'notice.reassigned', from: signer.signerId, to: email }] },
  )(
    replaceSigner(
      request,
      {
        signerId: signer.signerId,
        by: { signer_id: email, signer: { email }, send_to: { email: true, mobile_number: false } },
        stored,
        accessCodeHash: null,
        notify: true,
        replacedBy: signer.signerId,
        bySigner: true,
      },
      now,
    ),
  );
