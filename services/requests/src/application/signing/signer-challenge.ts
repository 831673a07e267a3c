import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { RequestSigner, SignatureRequest } from '../../domain/signature-request.js';
import { issueOtp, liveOtp, lockedNow, type Challenge } from '../../domain/signer-authentication.js';
import type { Store } from '../../ports/store.js';
import { executionUrl } from '../deps.js';
import { envelopes } from '../events.js';
import { codePage, type CodePage, type LinkWithPass } from './code-page.js';
import type { AuthDeps } from './signer-deps.js';
import { findLinked, liveAccess, verifiedLink, type Linked } from './verify-link.js';

/**
 * The code-entry step in front of the signing page (ADR 2001), shared by the gate, the
 * resend and the check of a code.
 */

/** A link that opens now, of a signer yet to sign with a method: the only ones asked for a code. */
export const challengeable = (
  deps: Pick<AuthDeps, 'urlSigner' | 'linkLifetimeMs' | 'clock'>,
  linked: Linked,
  link: LinkWithPass,
): E.Either<{ readonly _tag: 'NoCheck' }, Linked> => {
  const live = liveAccess(deps, linked, link, isoNow(deps.clock));
  return E.isLeft(live) || live.right.signer.state !== 'pending' || live.right.signer.authentication === null
    ? E.left({ _tag: 'NoCheck' })
    : live;
};

/** Answers `otherwise` for whatever failed before (a link that is no step for a code). */
export const or = <A>(otherwise: A) => TE.orElseW((): TE.TaskEither<never, A> => TE.right(otherwise));

/**
 * Sends a new one-time code when the signer has none live (or asks again): the code is
 * kept hashed, and `signer.code_requested` takes it to the notifier through the outbox.
 */
export const withFreshOtp = (
  deps: AuthDeps,
  store: Store,
  request: SignatureRequest,
  signer: RequestSigner,
  challenge: Challenge,
  now: string,
  force: boolean,
): TE.TaskEither<never, CodePage> => {
  if (
    challenge.method === 'access_code' ||
    (liveOtp(challenge, now) && !force) ||
    lockedNow(challenge, now) !== null
  )
    return TE.right(codePage(deps, request, signer, challenge, now));
  const code = deps.oneTimeCode();
  return pipe(
    deps.codeHasher.hash(code),
    TE.chain((hash) => {
      const issued = issueOtp(challenge, hash, now, deps.authPolicy);
      if (issued._tag !== 'Issued')
        return TE.right(
          codePage(deps, request, signer, challenge, now, issued._tag === 'SmsLimit' ? issued.retryAt : null),
        );
      return pipe(
        store.challenges.save(request.id, signer.signerRef, issued.challenge),
        TE.chain(() =>
          store.outbox.append(
            envelopes({ ids: deps.ids, executionUrl: executionUrl(deps) }, { ...request, updatedAt: now }, [
              {
                type: 'signer.code_requested',
                signerRef: signer.signerRef,
                channel: challenge.method === 'sms_otp' ? 'sms' : 'email',
                code,
                expiresAt: issued.expiresAt,
              },
            ]),
          ),
        ),
        TE.map(() => codePage(deps, request, signer, issued.challenge, now)),
      );
    }),
  );
};

/**
 * Runs `work` on a live link of a signer with a method, with the Request and their
 * challenge locked; any other link answers `otherwise`.
 */
export const onChallenge = <A>(
  deps: AuthDeps,
  link: LinkWithPass,
  otherwise: A,
  work: (
    store: Store,
    request: SignatureRequest,
    signer: RequestSigner,
    challenge: Challenge,
    now: string,
  ) => TE.TaskEither<never, A>,
): TE.TaskEither<never, A> =>
  pipe(
    verifiedLink(deps, link, () =>
      deps.transact((store) =>
        pipe(
          findLinked(store.requests.lockByVerifiedId, link),
          TE.chainEitherKW((linked) => challengeable(deps, linked, link)),
          TE.chainW(({ request, signer }) =>
            pipe(
              store.challenges.lock(link.requestId, link.signerRef),
              TE.chain(
                O.match(
                  () => TE.right(otherwise),
                  (challenge) => work(store, request, signer, challenge, isoNow(deps.clock)),
                ),
              ),
            ),
          ),
          // Nothing written: the transaction ends as before, committed.
          or(otherwise),
        ),
      ),
    ),
    or(otherwise),
  );
