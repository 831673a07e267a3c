// The notifier's reports on each message, as a signer's delivery status keeps them (ADR 2650).
import * as E from 'fp-ts/lib/Either.js';
import type { Channel, Delivery, RequestSigner, SignatureRequest, TransitionError } from './request-model.js';

/**
 * Whether a report on a channel replaces the one recorded: reports may arrive out of
 * order (a reminder's before the send's), and the latest by occurrence wins, a tie going
 * to the one that arrives last. The Postgres adapter states the same rule in SQL (ADR 2650).
 */
export const supersedes = (current: Delivery | null, next: Delivery): boolean =>
  current === null || Date.parse(current.at) <= Date.parse(next.at);

/**
 * Whether a report is about the signer's address on its channel now: one for a message to
 * an address the sender has since corrected (ADR 3140) is not, whenever it arrives. A
 * report that does not name its address (`to`, from older notifiers) is taken as theirs.
 * The Postgres adapter states the same rule in SQL.
 */
export const isForCurrentAddress = (
  signer: RequestSigner,
  channel: Channel,
  to: string | undefined,
): boolean =>
  to === undefined || (channel === 'email' ? signer.contact.email : signer.contact.mobileNumber) === to;

/**
 * Records what the notifier reported for one channel of one signer. Outcomes may arrive
 * out of order (a reminder's before the send's); the latest by occurrence wins, so a
 * late report never overwrites a newer one, and a report about an address the signer no
 * longer has is left out, as is one about a signer since replaced in the place (ADR 3550:
 * `signerId` is not the place's; absent from older notifiers' reports, taken as theirs).
 */
export const recordDelivery = (
  request: SignatureRequest,
  signerRef: string,
  channel: Channel,
  delivery: Delivery,
  to?: string,
  signerId?: string,
): E.Either<TransitionError, SignatureRequest> => {
  const signer = request.signers.find((s) => s.signerRef === signerRef);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner', signerRef });
  if (
    (signerId !== undefined && signerId !== signer.signerId) ||
    !isForCurrentAddress(signer, channel, to) ||
    !supersedes(signer.delivery[channel], delivery)
  )
    return E.right(request);
  return E.right({
    ...request,
    signers: request.signers.map((s) =>
      s === signer ? { ...s, delivery: { ...s.delivery, [channel]: delivery } } : s,
    ),
  });
};
