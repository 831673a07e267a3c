import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { CodePage, LinkWithPass } from './code-page.js';
import { challengeable, onChallenge, or, withFreshOtp } from './signer-challenge.js';
import type { AuthDeps } from './signer-deps.js';
import { authenticated } from './signer-pass.js';
import { linkedSigner } from './verify-link.js';

export type Gate =
  /** Nothing to check (no method, a pass, or a link the signing page refuses anyway). */
  | { readonly _tag: 'Open'; readonly authToken: string | null }
  | { readonly _tag: 'CodeRequired'; readonly page: CodePage };

/**
 * `GET /sign` (and the PDF it links): the signing page opens only with a pass; without
 * one, the code-entry page, and for a one-time code method a code is sent when none is live.
 */
export const signerGate =
  (deps: AuthDeps) =>
  (link: LinkWithPass): TE.TaskEither<never, Gate> => {
    const open: Gate = { _tag: 'Open', authToken: null };
    return pipe(
      linkedSigner(deps, link),
      TE.chainEitherKW((linked) => challengeable(deps, linked, link)),
      TE.chainW(({ request, signer }) =>
        E.isRight(authenticated(deps, request, signer, link.authToken, isoNow(deps.clock)))
          ? TE.right<never, Gate>({ _tag: 'Open', authToken: link.authToken ?? null })
          : onChallenge<Gate>(deps, link, open, (store, request, signer, challenge, now) =>
              pipe(
                withFreshOtp(deps, store, request, signer, challenge, now, false),
                TE.map((page): Gate => ({ _tag: 'CodeRequired', page })),
              ),
            ),
      ),
      or(open),
    );
  };
