import { isoNow } from '@esign/contracts';
import * as A from 'fp-ts/lib/Array.js';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { acceptUpload, attachmentFields, type Upload } from '../../domain/attachments.js';
import type { Store } from '../../ports/store.js';
import { checkForm, type ActInput } from './signer-act.js';
import type { SigningDeps } from './signer-deps.js';
import { pageFor, type SigningPage } from './signing-page.js';
import { authenticated } from './signer-pass.js';
import { findLinked, liveAccess, verifiedLink } from './verify-link.js';

export interface KeepInput extends ActInput {
  /** The files the form brought, by field index. */
  readonly uploads: readonly Upload[];
}

/** Why an upload was not kept, by the index of its field. */
export type RefusedUploads = ReadonlyMap<number, string>;

const NONE: RefusedUploads = new Map();

/** Keeps each fit upload for one of the signer's attachment fields; answers why the others were not. */
const keepEach = (store: Store, page: SigningPage, uploads: readonly Upload[], now: string) => {
  const fields = attachmentFields(page.mine);
  const refused = new Map<number, string>();
  return pipe(
    uploads.flatMap((upload) => {
      const field = fields.find((f) => f.index === upload.index);
      if (field === undefined) return [];
      const accepted = acceptUpload(upload);
      if (E.isLeft(accepted)) {
        refused.set(upload.index, accepted.left);
        return [];
      }
      return [
        store.attachments.keep(page.request.id, page.signer.signerRef, field.name, accepted.right, now),
      ];
    }),
    A.sequence(TE.ApplicativeSeq),
    TE.map((): RefusedUploads => refused),
  );
};

/**
 * The files a signing form brought (ADR 3920), kept in a transaction of their own before the
 * act is decided, so a form shown again because of another field keeps them: only on a live
 * link of a signer who may still sign, with a form this service issued them. A form that
 * fails those checks keeps nothing, and the act that follows refuses it for its own reason.
 */
export const keepAttachments =
  (deps: SigningDeps) =>
  (input: KeepInput): TE.TaskEither<never, RefusedUploads> =>
    input.uploads.length === 0
      ? TE.right(NONE)
      : pipe(
          verifiedLink(deps, input, () =>
            deps.transact((store) =>
              pipe(
                findLinked(store.requests.lockByVerifiedId, input),
                TE.chainW((linked) => {
                  const now = isoNow(deps.clock);
                  // Only before the signer acted: a signed or declined signer's files are settled.
                  if (linked.signer.state !== 'pending') return TE.right(NONE);
                  return pipe(
                    TE.fromEither(liveAccess(deps, linked, input, now)),
                    TE.chainFirstEitherKW(() =>
                      authenticated(deps, linked.request, linked.signer, input.authToken, now),
                    ),
                    TE.chainW(() => pageFor(deps, store, linked.request, linked.signer)),
                    TE.chainEitherKW((page) => checkForm(deps, page, input, now)),
                    TE.chainW((page) => keepEach(store, page, input.uploads, now)),
                  );
                }),
              ),
            ),
          ),
          TE.orElseW(() => TE.right(NONE)),
        );
