import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { RequestSigner, SignatureRequest } from '../../domain/signature-request.js';
import { canReassign, checkReassignment, reassignBySigner } from '../../domain/signer-reassignment.js';
import type { Store } from '../../ports/store.js';
import { executionUrl, requestPageUrl } from '../deps.js';
import { envelopes } from '../events.js';
import { checkForm, type ActInput, type SubmitRefusal } from './signer-act.js';
import { authenticated } from './signer-pass.js';
import type { SigningDeps } from './signer-deps.js';
import { pageFor } from './signing-page.js';
import { findLinked, liveAccess, verifiedLink } from './verify-link.js';

export interface ReassignInput extends ActInput {
  /** Whom the signer asks to sign in their place, as typed. */
  readonly email: string | undefined;
  /** What they tell them, as typed (ADR 3630): optional. */
  readonly note: string | undefined;
}

export type ReassignRefusal =
  | SubmitRefusal
  /**
   * The Request does not let this signer ask someone else (ADR 3560): not allowed, not
   * their turn, or their check.
   */
  | { readonly _tag: 'NotReassignable'; readonly request: SignatureRequest; readonly signer: RequestSigner };

export interface Reassigned {
  readonly request: SignatureRequest;
  /** The signer who asked, as they were. */
  readonly signer: RequestSigner;
  /** Whom they asked: the new signer's `signer_id` and address. */
  readonly email: string;
}

/**
 * `POST /sign/reassign` (ADR 3560): the signer asks someone else to sign in their place.
 * On a live link, past their check, with the page's own form, in one transaction that locks
 * the Request: the Site's record of the address is read, and the replacement (ADR 3550)
 * written with its events (the new signer's invitation) and the Site's signer upserted.
 */
export const reassignSigning =
  (deps: SigningDeps) =>
  (input: ReassignInput): TE.TaskEither<ReassignRefusal, Reassigned> => {
    const locked = (store: Store): TE.TaskEither<ReassignRefusal, Reassigned> =>
      pipe(
        findLinked(store.requests.lockByVerifiedId, input),
        TE.chainW(({ request, signer }): TE.TaskEither<ReassignRefusal, Reassigned> => {
          const now = isoNow(deps.clock);
          if (signer.state === 'signed') return TE.left({ _tag: 'AlreadySigned', request, signer });
          return pipe(
            TE.fromEither(liveAccess(deps, { request, signer }, input, now)),
            TE.chainFirstEitherKW(() => authenticated(deps, request, signer, input.authToken, now)),
            TE.chainW(() => pageFor(deps, store, request, signer)),
            TE.chainEitherKW((page) => checkForm(deps, page, input, now)),
            TE.filterOrElseW(
              () => canReassign(request, signer),
              (): ReassignRefusal => ({ _tag: 'NotReassignable', request, signer }),
            ),
            TE.chainEitherKW((page) =>
              pipe(
                checkReassignment(request, signer, input),
                E.mapLeft((problems): ReassignRefusal => ({ _tag: 'InvalidSubmission', page, problems })),
              ),
            ),
            TE.chainW((asked) =>
              pipe(
                store.creation.inputs(request.siteId, [], [asked.email]),
                TE.chainW((found) => {
                  const change = reassignBySigner(
                    request,
                    signer,
                    asked,
                    found.storedContacts.get(asked.email),
                    now,
                  );
                  // The checks above are the replacement's own: a refusal here is a bug.
                  if (E.isLeft(change)) throw new Error(`reassign refused after checks: ${change.left._tag}`);
                  const t = change.right;
                  return pipe(
                    store.requests.update(
                      request,
                      t.request,
                      envelopes(
                        {
                          ids: deps.ids,
                          executionUrl: executionUrl(deps),
                          requestPageUrl: requestPageUrl(deps),
                        },
                        t.request,
                        t.events,
                      ),
                      {
                        siteSigners: t.siteSigners,
                        challenges: t.challenges,
                        // The audit trail says where they asked from, as it does of a signing act.
                        askedFrom: { signerRef: signer.signerRef, ip: input.ip, userAgent: input.userAgent },
                      },
                    ),
                    TE.map(() => ({ request: t.request, signer, email: asked.email })),
                  );
                }),
              ),
            ),
          );
        }),
      );
    return verifiedLink(deps, input, () => deps.transact(locked));
  };
