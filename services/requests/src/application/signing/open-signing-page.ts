import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { RequestSigner, SignatureRequest } from '../../domain/signature-request.js';
import { pageFor, type SigningPage } from './signing-page.js';
import type { SigningDeps } from './signer-deps.js';
import { liveSigner, type ExecutionLink, type LinkRefusal } from './verify-link.js';

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
      TE.chainW(({ request, signer }) =>
        signer.state === 'signed'
          ? TE.right<never, PageOutcome>({ _tag: 'AlreadySigned', request, signer })
          : pipe(
              pageFor(deps, deps.store, request, signer),
              TE.map((page): PageOutcome => ({ _tag: 'Sign', page })),
            ),
      ),
    );
