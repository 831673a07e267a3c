import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { executionAccess, type RequestSigner, type SignatureRequest } from '../domain/signature-request.js';
import {
  failed,
  issueOtp,
  liveOtp,
  lockedNow,
  newChallenge,
  passed,
  type AuthMethod,
  type Challenge,
} from '../domain/signer-authentication.js';
import type { CreateRequestBody } from '@esign/contracts';
import type { Store } from '../ports/store.js';
import { executionUrl, type Deps } from './deps.js';
import { envelopes } from './events.js';

/**
 * Signer authentication (ADR 2001): the code-entry step in front of the signing page.
 * A right code earns a pass token, carried by the page's forms and links (no cookies);
 * `POST /sign` and `/sign/decline` refuse without one (see `authenticated`).
 */

export type AuthDeps = Pick<
  Deps,
  | 'store'
  | 'transact'
  | 'clock'
  | 'ids'
  | 'urlSigner'
  | 'publicBaseUrl'
  | 'formTokens'
  | 'codeHasher'
  | 'authPolicy'
  | 'authTokens'
  | 'oneTimeCode'
  | 'linkLifetimeMs'
>;

export interface LinkWithPass {
  readonly requestId: string;
  readonly signerRef: string;
  readonly signature: string;
  /** The pass token from an earlier right code, if the browser carries one. */
  readonly authToken?: string | undefined;
}

/** What the code-entry page shows. */
export interface CodePage {
  readonly request: SignatureRequest;
  readonly signer: RequestSigner;
  readonly method: AuthMethod;
  /** Where the one-time code went, partly hidden (`a•••@example.com`, `•••• 4567`). */
  readonly sentTo: string | null;
  readonly lockedUntil: string | null;
  /** Why no new code was sent just now (the hourly cap on texts). */
  readonly smsLimitUntil: string | null;
  readonly formToken: string;
}

export type Gate =
  /** Nothing to check (no method, a pass, or a link the signing page refuses anyway). */
  | { readonly _tag: 'Open'; readonly authToken: string | null }
  | { readonly _tag: 'CodeRequired'; readonly page: CodePage };

export type VerifyOutcome =
  | { readonly _tag: 'Passed'; readonly authToken: string }
  | { readonly _tag: 'WrongCode'; readonly attemptsLeft: number; readonly page: CodePage }
  | { readonly _tag: 'Locked'; readonly page: CodePage }
  | { readonly _tag: 'CodeExpired'; readonly page: CodePage }
  /** The link is not one to check a code for (forged, closed, not the turn, no method): open it as usual. */
  | { readonly _tag: 'NotApplicable' };

const passBinding = (requestId: string, signerRef: string, passedMs: number) =>
  `${requestId}\n${signerRef}\nauthenticated\n${passedMs}`;
const codeBinding = (requestId: string, signerRef: string) => `${requestId}\n${signerRef}\ncode`;

/** `<passed at, ms>.<token>`: the time the check passed travels with the proof of it. */
export const passToken = (
  deps: Pick<Deps, 'authTokens'>,
  requestId: string,
  signerRef: string,
  at: string,
) => {
  const ms = Date.parse(at);
  return `${ms}.${deps.authTokens.issue(passBinding(requestId, signerRef, ms), at)}`;
};

/**
 * Whether a signer may act: no method, or a pass token for exactly this Request and
 * signer, recent enough. Answers how and when the check passed (for the audit trail).
 */
export const authenticated = (
  deps: Pick<Deps, 'authTokens'>,
  request: SignatureRequest,
  signer: RequestSigner,
  token: string | undefined,
  now: string,
): E.Either<{ readonly _tag: 'AuthenticationRequired' }, { method: AuthMethod; passedAt: string } | null> => {
  if (signer.authentication === null) return E.right(null);
  const match = /^(\d{1,15})\.(.+)$/.exec(token ?? '');
  if (match === null) return E.left({ _tag: 'AuthenticationRequired' });
  const ms = Number(match[1]);
  const verdict = deps.authTokens.verify(passBinding(request.id, signer.signerRef, ms), match[2]!, now);
  return verdict === 'valid'
    ? E.right({ method: signer.authentication, passedAt: new Date(ms).toISOString() })
    : E.left({ _tag: 'AuthenticationRequired' });
};

/** `a•••@example.com` / `•••• 4567`: enough for the signer to recognise, little for anyone else. */
const masked = (signer: RequestSigner, method: AuthMethod): string | null => {
  if (method === 'email_otp' && signer.contact.email !== null) {
    const [local, domain] = signer.contact.email.split('@');
    return `${(local ?? '').slice(0, 1)}•••@${domain ?? ''}`;
  }
  if (method === 'sms_otp' && signer.contact.mobileNumber !== null)
    return `•••• ${signer.contact.mobileNumber.slice(-4)}`;
  return null;
};

/** The Request and signer of a link that opens now, or nothing (the signing page then says why). */
const liveLink = (
  deps: AuthDeps,
  found: O.Option<SignatureRequest>,
  link: LinkWithPass,
): { request: SignatureRequest; signer: RequestSigner } | undefined => {
  if (O.isNone(found)) return undefined;
  const access = executionAccess(
    found.value,
    { signerRef: link.signerRef, version: deps.urlSigner.versionOf(link.signature) },
    deps.clock.now(),
    deps.linkLifetimeMs,
  );
  if (E.isLeft(access) || access.right.state !== 'pending' || access.right.authentication === null)
    return undefined;
  return { request: found.value, signer: access.right };
};

const codePage = (
  deps: AuthDeps,
  request: SignatureRequest,
  signer: RequestSigner,
  challenge: Challenge,
  now: string,
  smsLimitUntil: string | null = null,
): CodePage => ({
  request,
  signer,
  method: challenge.method,
  sentTo: masked(signer, challenge.method),
  lockedUntil: lockedNow(challenge, now)?.until ?? null,
  smsLimitUntil,
  formToken: deps.formTokens.issue(codeBinding(request.id, signer.signerRef), now),
});

/**
 * Sends a new one-time code when the signer has none live (or asks again): the code is
 * kept hashed, and `signer.code_requested` takes it to the notifier through the outbox.
 */
const withFreshOtp = (
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
    TE.fromTask(deps.codeHasher.hash(code)),
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

/** Runs `work` on a live link of a signer with a method, with their challenge locked. */
const onChallenge = <A>(
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
): TE.TaskEither<never, A> => {
  if (!deps.urlSigner.verify(link.requestId, link.signerRef, link.signature)) return TE.right(otherwise);
  return deps.transact((store) =>
    pipe(
      store.requests.lockByVerifiedId(link.requestId),
      TE.chain((found) => {
        const live = liveLink(deps, found, link);
        if (live === undefined) return TE.right(otherwise);
        return pipe(
          store.challenges.lock(link.requestId, link.signerRef),
          TE.chain(
            O.match(
              () => TE.right(otherwise),
              (challenge) => work(store, live.request, live.signer, challenge, deps.clock.now()),
            ),
          ),
        );
      }),
    ),
  );
};

/**
 * `GET /sign` (and the PDF it links): the signing page opens only with a pass; without
 * one, the code-entry page, and for a one-time code method a code is sent when none is live.
 */
export const signerGate =
  (deps: AuthDeps) =>
  (link: LinkWithPass): TE.TaskEither<never, Gate> => {
    const open: Gate = { _tag: 'Open', authToken: null };
    if (!deps.urlSigner.verify(link.requestId, link.signerRef, link.signature)) return TE.right(open);
    return pipe(
      deps.store.requests.findByVerifiedId(link.requestId),
      TE.chain((found) => {
        const live = liveLink(deps, found, link);
        if (live === undefined) return TE.right(open);
        const pass = authenticated(deps, live.request, live.signer, link.authToken, deps.clock.now());
        if (E.isRight(pass))
          return TE.right<never, Gate>({ _tag: 'Open', authToken: link.authToken ?? null });
        return onChallenge<Gate>(deps, link, open, (store, request, signer, challenge, now) =>
          pipe(
            withFreshOtp(deps, store, request, signer, challenge, now, false),
            TE.map((page): Gate => ({ _tag: 'CodeRequired', page })),
          ),
        );
      }),
    );
  };

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
          TE.fromTask(
            code === '' || stored === null || expired || !tokenOk || code.length > 64
              ? () => Promise.resolve(false)
              : deps.codeHasher.verify(code, stored),
          ),
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

/**
 * The challenges of a new Request: one per signer with a method, access codes hashed
 * (before the transaction: scrypt is slow on purpose). Answers them by body index.
 */
export const hashAccessCodes =
  (deps: Pick<Deps, 'codeHasher'>) =>
  (body: CreateRequestBody): TE.TaskEither<never, ReadonlyMap<number, Challenge>> =>
    pipe(
      body.signers.map((entry, index) => ({ entry, index })),
      TE.traverseSeqArray(({ entry, index }) => {
        const auth = entry.authentication;
        if (auth === undefined) return TE.right([] as [number, Challenge][]);
        if (auth.method !== 'access_code' || auth.access_code === undefined)
          return TE.right([[index, newChallenge(auth.method, null)]] as [number, Challenge][]);
        return pipe(
          TE.fromTask(deps.codeHasher.hash(auth.access_code)),
          TE.map((hash) => [[index, newChallenge('access_code', hash)]] as [number, Challenge][]),
        );
      }),
      TE.map((lists) => new Map(lists.flat())),
    );
