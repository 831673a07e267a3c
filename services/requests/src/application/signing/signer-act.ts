import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { SignerAct, SubmissionProblem } from '../../domain/signing.js';
import type {
  RequestSigner,
  SignatureRequest,
  Transition,
  TransitionError,
} from '../../domain/signature-request.js';
import { copyUrl, executionUrl, requestPageUrl, type Deps } from '../deps.js';
import { envelopes } from '../events.js';
import { documentKey, loadDocument, type LoadedDocument } from './load-document.js';
import { redirectTarget } from './redirect-target.js';
import { authenticated } from './signer-pass.js';
import type { SigningDeps } from './signer-deps.js';
import type { Store } from '../../ports/store.js';
import { formBinding, pageFor, pageOf, type SigningPage } from './signing-page.js';
import { findLinked, liveAccess, verifiedLink, type ExecutionLink, type LinkRefusal } from './verify-link.js';

export type SubmitRefusal =
  | LinkRefusal
  /** The form was not one this service issued for this signer and document. */
  | { readonly _tag: 'InvalidFormToken' }
  /** The signer has a check (ADR 2001) and the form carries no pass for it. */
  | { readonly _tag: 'AuthenticationRequired' }
  /** A signer who signed cannot decline afterwards. */
  | { readonly _tag: 'AlreadySigned'; readonly request: SignatureRequest; readonly signer: RequestSigner }
  /** The form is too old: shown again with a fresh token. */
  | { readonly _tag: 'FormTokenExpired'; readonly page: SigningPage }
  /** The document differs from the one the form was shown with: shown again. */
  | { readonly _tag: 'DocumentChanged'; readonly page: SigningPage }
  | {
      readonly _tag: 'InvalidSubmission';
      readonly page: SigningPage;
      readonly problems: readonly SubmissionProblem[];
    };

export interface Evidence {
  readonly ip: string;
  readonly userAgent: string;
  /** The pass a right code earned (signer authentication, ADR 2001). */
  readonly authToken?: string | undefined;
}

export interface ActDone {
  readonly request: SignatureRequest;
  readonly signer: RequestSigner;
  readonly act: 'signed' | 'declined';
  /** True when this submission repeated one already taken: nothing was recorded. */
  readonly repeated: boolean;
  /** The client's `redirect_url` with `request_id`, `signer_id` and `status` added; null: our own page. */
  readonly redirectTo: string | null;
}

/** What every act's form carries. */
export type ActInput = ExecutionLink & Evidence & { formToken: string; documentSha256: string };

/** How an act decides, on a live link with a valid form: the transition and the audit entry. */
export type Decide<I> = (
  input: I,
  page: SigningPage,
  now: string,
) => E.Either<SubmitRefusal, { transition: Transition; act: SignerAct }>;

/** The form must be ours, recent, and about the document the Request still has. */
export const checkForm = (
  deps: SigningDeps,
  page: SigningPage,
  input: { formToken: string; documentSha256: string },
  now: string,
): E.Either<SubmitRefusal, SigningPage> => {
  if (input.documentSha256 !== page.documentSha256) return E.left({ _tag: 'DocumentChanged', page });
  const verdict = deps.formTokens.verify(
    formBinding(page.request, page.signer, page.documentSha256),
    input.formToken,
    now,
  );
  if (verdict === 'invalid') return E.left({ _tag: 'InvalidFormToken' });
  if (verdict === 'expired') return E.left({ _tag: 'FormTokenExpired', page });
  return E.right(page);
};

/** What the audit entry of an act records of the signer and the submission. */
const evidence = (deps: Pick<Deps, 'authTokens'>, page: SigningPage, input: Evidence, now: string) => ({
  authentication: E.getOrElseW(() => null)(
    authenticated(deps, page.request, page.signer, input.authToken, now),
  ),
  signerRef: page.signer.signerRef,
  signerId: page.signer.signerId,
  contact: page.signer.contact,
  at: now,
  ip: input.ip,
  userAgent: input.userAgent,
  documentSha256: page.documentSha256,
});

/**
 * The transition an act's checks made certain, with its audit entry. The link was live
 * a moment ago under the same lock: a refusal of the transition here is a bug.
 */
export const decided = (
  deps: Pick<Deps, 'authTokens'>,
  page: SigningPage,
  input: Evidence,
  now: string,
  transition: E.Either<TransitionError, Transition>,
  details: Pick<SignerAct, 'kind' | 'typedName' | 'drawnSignature' | 'values' | 'reason'>,
): { transition: Transition; act: SignerAct } => {
  if (E.isLeft(transition))
    throw new Error(
      `${details.kind === 'signed' ? 'sign' : 'decline'} refused after checks: ${transition.left._tag}`,
    );
  return { transition: transition.right, act: { ...evidence(deps, page, input, now), ...details } };
};

interface Preloaded {
  readonly key: string;
  readonly document: LoadedDocument;
}

/**
 * The document, read and hashed before the Request is locked, so concurrent acts do not
 * queue behind the hashing of every contract. Only for a signer who may still act; the
 * locked Request must read the same (`documentKey`), else it is loaded again under the lock.
 */
const preload = (deps: SigningDeps, link: ExecutionLink): TE.TaskEither<never, O.Option<Preloaded>> =>
  pipe(
    findLinked(deps.store.requests.findByVerifiedId, link),
    TE.chainW(({ request, signer }) =>
      request.state !== 'sent' || signer.state !== 'pending'
        ? TE.right(O.none)
        : pipe(
            loadDocument(deps.store, request),
            TE.map((document) => O.some({ key: documentKey(request), document })),
          ),
    ),
    TE.orElseW(() => TE.right(O.none)),
  );

/** Writes a decided act: the new state, the audit entry and the events; answers where the signer lands. */
const record =
  (
    deps: SigningDeps,
    store: Store,
    input: ActInput,
    kind: 'signed' | 'declined',
    previous: SignatureRequest,
  ) =>
  ({ transition, act }: { transition: Transition; act: SignerAct }): TE.TaskEither<never, ActDone> =>
    pipe(
      store.requests.update(
        previous,
        transition.request,
        envelopes(
          {
            ids: deps.ids,
            executionUrl: executionUrl(deps),
            copyUrl: copyUrl(deps),
            requestPageUrl: requestPageUrl(deps),
          },
          transition.request,
          transition.events,
        ),
      ),
      TE.chain(() => store.acts.insert(input.requestId, act)),
      TE.map(() => {
        const after = transition.request.signers.find((s) => s.signerRef === input.signerRef)!;
        return {
          request: transition.request,
          signer: after,
          act: kind,
          repeated: false,
          redirectTo: redirectTarget(transition.request, after, kind),
        };
      }),
    );

/**
 * A signer's act in one transaction that locks the Request: concurrent acts on one
 * Request queue up, so two signers signing at once both count and the last one completes
 * it exactly once. The act, the new state and the events commit together or not at all.
 */
export const signerAct =
  <I extends ActInput>(deps: SigningDeps, kind: 'signed' | 'declined', decide: Decide<I>) =>
  (input: I): TE.TaskEither<SubmitRefusal, ActDone> => {
    const locked =
      (preloaded: O.Option<Preloaded>) =>
      (store: Store): TE.TaskEither<SubmitRefusal, ActDone> =>
        pipe(
          findLinked(store.requests.lockByVerifiedId, input),
          TE.chainW(({ request, signer }): TE.TaskEither<SubmitRefusal, ActDone> => {
            const now = isoNow(deps.clock);
            // A repeated submission (a double click, a back button) lands where the first did.
            if (signer.state === kind)
              return TE.right({
                request,
                signer,
                act: kind,
                repeated: true,
                redirectTo: redirectTarget(request, signer, kind),
              });
            if (signer.state === 'signed') return TE.left({ _tag: 'AlreadySigned', request, signer });
            return pipe(
              TE.fromEither(liveAccess(deps, { request, signer }, input, now)),
              TE.chainFirstEitherKW(() => authenticated(deps, request, signer, input.authToken, now)),
              TE.chainW(() =>
                O.isSome(preloaded) && preloaded.value.key === documentKey(request)
                  ? pageOf(deps, store, request, signer, preloaded.value.document)
                  : pageFor(deps, store, request, signer),
              ),
              TE.chainEitherKW((page) => checkForm(deps, page, input, now)),
              TE.chainEitherKW((page) => decide(input, page, now)),
              TE.chainW(record(deps, store, input, kind, request)),
            );
          }),
        );
    return verifiedLink(deps, input, () =>
      pipe(
        preload(deps, input),
        TE.chainW((preloaded) => deps.transact(locked(preloaded))),
      ),
    );
  };
