import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { failed, liveOtp, lockedNow, passed } from '../../domain/signer-authentication.js';
import { codeBinding, codePage, type CodePage, type LinkWithPass } from './code-page.js';
import { onChallenge } from './signer-challenge.js';
import type { AuthDeps } from './signer-deps.js';
import { passToken } from './signer-pass.js';

export type VerifyOutcome =
  | { readonly _tag: 'Passed'; readonly authToken: string }
  | { readonly _tag: 'WrongCode'; readonly attemptsLeft: number; readonly page: CodePage }
  | { readonly _tag: 'Locked'; readonly page: CodePage }
  | { readonly _tag: 'CodeExpired'; readonly page: CodePage }
  /** The link is not one to check a code for (forged, closed, not the turn, no method): open it as usual. */
  | { readonly _tag: 'NotApplicable' };

/**
 * `POST /sign/verify`: checks the code (the access code against its scrypt hash, a
 * one-time code against the live one's), in constant time. A wrong one counts (and is
 * kept: the transaction commits), the last allowed one locks the link; a right one is
 * spent and earns a pass token.
 */
export const verifySignerCode =
  (deps: AuthDeps) =>
  (
    link: LinkWithPass & { readonly code: string; readonly formToken: string },
  ): TE.TaskEither<never, VerifyOutcome> =>
    onChallenge<VerifyOutcome>(
      deps,
      link,
      { _tag: 'NotApplicable' },
      (store, request, signer, challenge, now) => {
        if (lockedNow(challenge, now) !== null)
          return TE.right({ _tag: 'Locked', page: codePage(deps, request, signer, challenge, now) });
        const code = link.code.trim();
        const expired = challenge.method !== 'access_code' && !liveOtp(challenge, now);
        const stored = challenge.method === 'access_code' ? challenge.accessCodeHash : challenge.otpHash;
        const tokenOk =
          deps.formTokens.verify(codeBinding(request.id, signer.signerRef), link.formToken, now) !==
          'invalid';
        return pipe(
          code === '' || stored === null || expired || !tokenOk || code.length > 64
            ? TE.right(false)
            : deps.codeHasher.verify(code, stored),
          TE.chain((right): TE.TaskEither<never, VerifyOutcome> => {
            if (right) {
              const next = passed(challenge, now);
              return pipe(
                store.challenges.save(request.id, signer.signerRef, next),
                TE.map(() => ({
                  _tag: 'Passed' as const,
                  authToken: passToken(deps, request.id, signer.signerRef, now),
                })),
              );
            }
            if (expired && code !== '')
              return TE.right({ _tag: 'CodeExpired', page: codePage(deps, request, signer, challenge, now) });
            const after = failed(challenge, now, deps.authPolicy);
            return pipe(
              store.challenges.save(request.id, signer.signerRef, after.challenge),
              TE.map((): VerifyOutcome =>
                after.locked !== null
                  ? { _tag: 'Locked', page: codePage(deps, request, signer, after.challenge, now) }
                  : {
                      _tag: 'WrongCode',
                      attemptsLeft: after.attemptsLeft,
                      page: codePage(deps, request, signer, after.challenge, now),
                    },
              ),
            );
          }),
        );
      },
    );
