import * as E from 'fp-ts/lib/Either.js';
import { isEmail } from '@esign/contracts';
import type { RequestSigner, SignatureRequest, Transition, TransitionError } from './request-model.js';
import { hasChannel } from './channels.js';
import type { Contact } from './signer.js';
import { checkWritten, LIMITS, type SubmissionProblem } from './signing.js';
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

/** Whom a signer asks to sign in their place, and what they tell them (ADRs 3560, 3630). */
export interface Reassignment {
  /** The new signer's `signer_id` and address. */
  readonly email: string;
  /** Their note to the new signer, in that signer's invitation; absent when they wrote none. */
  readonly note: string | undefined;
}

/**
 * The reassign form as the signer filled it in: the address (`checkReassignEmail`) and an
 * optional note, plain text of at most 1000 characters, trimmed. Every problem at once.
 */
export const checkReassignment = (
  request: SignatureRequest,
  signer: RequestSigner,
  form: { readonly email: string | undefined; readonly note: string | undefined },
): E.Either<SubmissionProblem[], Reassignment> => {
  const email = checkReassignEmail(request, signer, form.email);
  const written = (form.note ?? '').trim();
  const note =
    written === '' ? E.right(undefined) : checkWritten(written, { _tag: 'ReassignNote' }, LIMITS.note);
  if (E.isLeft(email) || E.isLeft(note))
    return E.left([...(E.isLeft(email) ? email.left : []), ...(E.isLeft(note) ? note.left : [])]);
  return E.right({ email: email.right, note: note.right });
};

/**
 * How the new signer's invitation names whom asked them (ADR 3630): the address their own
 * link went to, else the number, else the client's `signer_id` (the signer can be asked
 * to reassign only when sent their link, so one of the first two is there).
 */
const askerOf = (signer: RequestSigner): string =>
  signer.contact.email ?? signer.contact.mobileNumber ?? signer.signerId;

/**
 * sent → sent: the signer asked someone else to sign in their place (ADR 3560). The same
 * change as the sender's replacement (ADR 3550): the place, its fields and order kept, a
 * new link, the Site's signer upserted, the new signer invited by e-mail at once, told who
 * asked and their note (ADR 3630); the audit trail and `request.signer_updated` name the
 * signer as who asked. They are not told of it; the creating user, when their address is
 * known, is (`notice.reassigned`), with the note.
 */
export const reassignBySigner = (
  request: SignatureRequest,
  signer: RequestSigner,
  asked: Reassignment,
  stored: Contact | undefined,
  now: string,
): E.Either<TransitionError, Transition> =>
  E.map((t: Transition): Transition =>
    // The creating user, when their address is known, is told who asked whom (as of a decline).
    request.creator?.email == null
      ? t
      : {
          ...t,
          events: [
            ...t.events,
            {
              type: 'notice.reassigned',
              from: signer.signerId,
              to: asked.email,
              ...(asked.note !== undefined && { note: asked.note }),
            },
          ],
        },
  )(
    replaceSigner(
      request,
      {
        signerId: signer.signerId,
        by: {
          signer_id: asked.email,
          signer: { email: asked.email },
          send_to: { email: true, mobile_number: false },
        },
        stored,
        accessCodeHash: null,
        notify: true,
        replacedBy: signer.signerId,
        askedBy: { who: askerOf(signer), note: asked.note },
      },
      now,
    ),
  );
