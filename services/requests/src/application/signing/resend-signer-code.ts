import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { codeBinding, codePage, type LinkWithPass } from './code-page.js';
import { onChallenge, withFreshOtp } from './signer-challenge.js';
import type { AuthDeps } from './signer-deps.js';
import type { Gate } from './signer-gate.js';

/** `POST /sign/code`: another one-time code (within the hourly cap on texts). */
export const resendSignerCode =
  (deps: AuthDeps) =>
  (link: LinkWithPass & { readonly formToken: string }): TE.TaskEither<never, Gate> =>
    onChallenge<Gate>(
      deps,
      link,
      { _tag: 'Open', authToken: null },
      (store, request, signer, challenge, now) =>
        deps.formTokens.verify(codeBinding(request.id, signer.signerRef), link.formToken, now) === 'invalid'
          ? TE.right<never, Gate>({
              _tag: 'CodeRequired',
              page: codePage(deps, request, signer, challenge, now),
            })
          : pipe(
              withFreshOtp(deps, store, request, signer, challenge, now, true),
              TE.map((page): Gate => ({ _tag: 'CodeRequired', page })),
            ),
    );
