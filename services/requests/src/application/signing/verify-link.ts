import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  executionAccess,
  type ExecutionRefusal,
  type RequestSigner,
  type RequestState,
  type SignatureRequest,
} from '../../domain/signature-request.js';
import type { Deps } from '../deps.js';

/**
 * The first step of every signer use case, written once: verify the Execution URL's
 * signature, find the Request it names, find the signer in it; then (for the pages and
 * the acts) whether the link opens now.
 */

/** What an Execution URL names. */
export interface ExecutionLink {
  readonly requestId: string;
  readonly signerRef: string;
  readonly signature: string;
}

/** Why a signer page does not open (or a submission is not taken): each has its own page and status. */
export type LinkRefusal =
  | { readonly _tag: 'InvalidSignature' }
  | { readonly _tag: 'NoSuchRequest' }
  | { readonly _tag: 'UnknownSigner' }
  | { readonly _tag: 'NotYetSent' }
  | { readonly _tag: 'Expired' }
  /** The sender issued this signer a newer link (ADR 1321). */
  | { readonly _tag: 'Replaced' }
  /** The link was the signer's whom the sender replaced by someone else (ADR 3550). */
  | { readonly _tag: 'SignerReplaced' }
  /** This link outlived its lifetime; the Request may still be open (ADR 1321). */
  | { readonly _tag: 'LinkExpired'; readonly expiredAt: string }
  | Extract<ExecutionRefusal, { _tag: 'NotYourTurn' }>
  /** A template stored before HTML was admitted at creation holds content the page would not show. */
  | { readonly _tag: 'UnshownContent'; readonly contractId: number }
  | {
      readonly _tag: 'Closed';
      readonly state: RequestState;
      readonly signer: RequestSigner;
      /** The reason the signers were told of a cancel (ADR 3500); absent when they were told none. */
      readonly cancelReason?: string;
    };

/** Why a link names no signer at all. */
export type LinkMiss = Extract<LinkRefusal, { _tag: 'InvalidSignature' | 'NoSuchRequest' | 'UnknownSigner' }>;

/** The Request and the signer a link names. */
export interface Linked {
  readonly request: SignatureRequest;
  readonly signer: RequestSigner;
}

/** How the Request is read: `findByVerifiedId`, or `lockByVerifiedId` in a transaction. */
type FindRequest = (id: string) => TE.TaskEither<never, O.Option<SignatureRequest>>;

/** Runs `then` only for a link this service signed: a forged one costs no read (and no transaction). */
export const verifiedLink = <E, A>(
  deps: Pick<Deps, 'urlSigner'>,
  link: ExecutionLink,
  then: () => TE.TaskEither<E, A>,
): TE.TaskEither<E | { readonly _tag: 'InvalidSignature' }, A> =>
  deps.urlSigner.verify(link.requestId, link.signerRef, link.signature)
    ? then()
    : TE.left({ _tag: 'InvalidSignature' });

/** The Request a verified link names (read by `find`), and the signer in it. */
export const findLinked = (find: FindRequest, link: ExecutionLink): TE.TaskEither<LinkMiss, Linked> =>
  pipe(
    find(link.requestId),
    TE.chainEitherKW((found) => {
      if (O.isNone(found)) return E.left<LinkMiss>({ _tag: 'NoSuchRequest' });
      const signer = found.value.signers.find((s) => s.signerRef === link.signerRef);
      return signer === undefined
        ? E.left<LinkMiss>({ _tag: 'UnknownSigner' })
        : E.right({ request: found.value, signer });
    }),
  );

/** Verify link → find request → find signer, outside any transaction. */
export const linkedSigner = (
  deps: Pick<Deps, 'store' | 'urlSigner'>,
  link: ExecutionLink,
): TE.TaskEither<LinkMiss, Linked> =>
  verifiedLink(deps, link, () => findLinked(deps.store.requests.findByVerifiedId, link));

/** Whether the link opens now: the Request decides (`executionAccess`, ADR 1321). */
export const liveAccess = (
  deps: Pick<Deps, 'urlSigner' | 'linkLifetimeMs'>,
  { request, signer }: Linked,
  link: ExecutionLink,
  now: string,
): E.Either<LinkRefusal, Linked> => {
  const access = executionAccess(
    request,
    { signerRef: link.signerRef, version: deps.urlSigner.versionOf(link.signature) },
    now,
    deps.linkLifetimeMs,
  );
  if (E.isLeft(access)) {
    const refusal = access.left;
    return E.left(refusal._tag === 'Closed' ? { ...refusal, signer } : refusal);
  }
  return E.right({ request, signer });
};

/** The Request and signer of a link that opens now, or why it does not. */
export const liveSigner = (
  deps: Pick<Deps, 'store' | 'clock' | 'urlSigner' | 'linkLifetimeMs'>,
  link: ExecutionLink,
): TE.TaskEither<LinkRefusal, Linked> =>
  pipe(
    linkedSigner(deps, link),
    TE.chainEitherKW((linked) => liveAccess(deps, linked, link, isoNow(deps.clock))),
  );
