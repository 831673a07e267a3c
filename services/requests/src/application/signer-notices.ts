import { ccIndexOf, isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { executionAccess, type SignatureRequest } from '../domain/signature-request.js';
import { copyBinding, executionUrl, type Deps } from './deps.js';
import { envelopes } from './events.js';
import { downloadExecuted, type ExecutedDocumentDeps } from './executed-documents.js';

/**
 * Viewed and completed (ADR 2002): the first opening of a live Execution URL, and the
 * signed, expiring link to a signer's copy of the executed PDF that the completion
 * e-mail carries.
 */

export interface ViewInput {
  readonly requestId: string;
  readonly signerRef: string;
  readonly signature: string;
  readonly ip: string;
  readonly userAgent: string;
}

/**
 * Marks the signer viewed the first time their link opens live (sent, their turn, not
 * acted yet), with the time, address and browser, and emits `request.viewed` once.
 * Answers whether this was the first opening.
 */
export const markViewed =
  (
    deps: Pick<
      Deps,
      'store' | 'transact' | 'clock' | 'ids' | 'urlSigner' | 'publicBaseUrl' | 'linkLifetimeMs'
    >,
  ) =>
  (input: ViewInput): TE.TaskEither<never, boolean> => {
    if (!deps.urlSigner.verify(input.requestId, input.signerRef, input.signature)) return TE.right(false);
    const now = isoNow(deps.clock);
    const unseen = (found: O.Option<SignatureRequest>) => {
      if (O.isNone(found)) return undefined;
      const access = executionAccess(
        found.value,
        { signerRef: input.signerRef, version: deps.urlSigner.versionOf(input.signature) },
        now,
        deps.linkLifetimeMs,
      );
      return E.isRight(access) && access.right.state === 'pending' && access.right.viewedAt === null
        ? found.value
        : undefined;
    };
    return pipe(
      // Most openings are not the first: a read, no transaction.
      deps.store.requests.findByVerifiedId(input.requestId),
      TE.chain((found) =>
        unseen(found) === undefined
          ? TE.right(false)
          : deps.transact((store) =>
              pipe(
                store.requests.lockByVerifiedId(input.requestId),
                TE.chain((locked) => {
                  const request = unseen(locked);
                  if (request === undefined) return TE.right(false);
                  return pipe(
                    store.requests.markViewed(input.requestId, input.signerRef, {
                      at: now,
                      ip: input.ip,
                      userAgent: input.userAgent,
                    }),
                    TE.chain((first) =>
                      !first
                        ? TE.right(false)
                        : pipe(
                            store.outbox.append(
                              envelopes(
                                { ids: deps.ids, executionUrl: executionUrl(deps) },
                                { ...request, updatedAt: now },
                                [{ type: 'request.viewed', signerRef: input.signerRef, at: now }],
                              ),
                            ),
                            TE.map(() => true),
                          ),
                    ),
                  );
                }),
              ),
            ),
      ),
    );
  };

export type CopyRefusal =
  | { readonly _tag: 'InvalidSignature' }
  | { readonly _tag: 'LinkExpired' }
  | { readonly _tag: 'NoSuchRequest' }
  | { readonly _tag: 'NotCompleted' };

/** Whether `ref` names one a copy was sent to: a signer, or one of the carbon copies (ADR 3230). */
const copyHolder = (request: SignatureRequest, ref: string): boolean => {
  const cc = ccIndexOf(ref);
  return cc === undefined ? request.signers.some((s) => s.signerRef === ref) : cc < (request.cc?.length ?? 0);
};

/**
 * `GET /sign/copy`: a signer's (or a carbon copy's) copy of the executed PDF, for a link whose signature
 * covers the Request, the signer and the expiry, until that expiry.
 */
export const executedCopy =
  (deps: ExecutedDocumentDeps & Pick<Deps, 'urlSigner'>) =>
  (input: {
    readonly requestId: string;
    readonly signerRef: string;
    readonly expires: string;
    readonly signature: string;
  }): TE.TaskEither<CopyRefusal, { readonly filename: string; readonly pdf: Uint8Array }> => {
    if (
      !/^\d{1,12}$/.test(input.expires) ||
      !deps.urlSigner.verify(input.requestId, copyBinding(input.signerRef, input.expires), input.signature)
    )
      return TE.left({ _tag: 'InvalidSignature' });
    if (Number(input.expires) * 1000 <= Date.parse(isoNow(deps.clock)))
      return TE.left({ _tag: 'LinkExpired' });
    return pipe(
      deps.store.requests.findByVerifiedId(input.requestId),
      TE.chainW((found) =>
        O.isNone(found) || !copyHolder(found.value, input.signerRef)
          ? TE.left<CopyRefusal, never>({ _tag: 'NoSuchRequest' })
          : pipe(
              // The Request's own site is the scope: the link vouches for this one Request.
              downloadExecuted(deps)({
                caller: {
                  sub: `signer:${input.signerRef}`,
                  sites: [{ id: found.value.siteId, name: found.value.siteName }],
                },
                requestId: input.requestId,
              }),
              TE.mapLeft((): CopyRefusal => ({ _tag: 'NotCompleted' })),
            ),
      ),
    );
  };
