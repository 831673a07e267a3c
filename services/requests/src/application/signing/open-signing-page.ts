import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { RequestSigner, SignatureRequest } from '../../domain/signature-request.js';
import { pageFor, type SigningPage } from './signing-page.js';
import type { SigningDeps } from './signer-deps.js';
import { liveSigner, type ExecutionLink, type LinkRefusal } from './verify-link.js';

/**
 * A cancelled Request's page says why, when its signers were told why (ADR 3500): the
 * reason of its `request.cancelled` that says they were. A reason they were not told is the
 * sender's own, and stays off the page.
 */
const withCancelReason =
  (deps: SigningDeps, requestId: string) =>
  (refusal: LinkRefusal): TE.TaskEither<LinkRefusal, never> =>
    refusal._tag !== 'Closed' || refusal.state !== 'cancelled'
      ? TE.left(refusal)
      : pipe(
          // A Request is cancelled once: its one `request.cancelled`, however much came after it.
          deps.store.requests.history({ requestId }, { page: 1, perPage: 1 }, 'desc', ['request.cancelled']),
          TE.chain(({ items: [cancelled] }) => {
            const reason = cancelled?.data.signers_notified === true ? cancelled.data.reason : undefined;
            return TE.left(typeof reason === 'string' ? { ...refusal, cancelReason: reason } : refusal);
          }),
        );

export type PageOutcome =
  | { readonly _tag: 'Sign'; readonly page: SigningPage }
  /** The signer has already signed; the Request waits for the others. */
  | { readonly _tag: 'AlreadySigned'; readonly request: SignatureRequest; readonly signer: RequestSigner };

/** `GET /sign`: the page to sign, or why there is none. */
export const openSigningPage =
  (deps: SigningDeps) =>
  (link: ExecutionLink): TE.TaskEither<LinkRefusal, PageOutcome> =>
    pipe(
      liveSigner(deps, link),
      TE.orElseW(withCancelReason(deps, link.requestId)),
      TE.chainW(({ request, signer }) =>
        signer.state === 'signed'
          ? TE.right<never, PageOutcome>({ _tag: 'AlreadySigned', request, signer })
          : pipe(
              pageFor(deps, deps.store, request, signer),
              TE.map((page): PageOutcome => ({ _tag: 'Sign', page })),
            ),
      ),
    );
