import { createHash } from 'node:crypto';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { StoredExecutedDocument } from '../ports/executed-document-store.js';
import type { ExecutedDocumentDeps } from './executed-documents.js';
import { loadDocument } from './signing/load-document.js';

/** The answer of `POST /v1.1/verify`. */
export type Verification =
  | {
      /** Byte for byte the executed document this service issued. */
      readonly status: 'valid';
      readonly fileSha256: string;
      readonly requestId: string;
      readonly completedAt: string;
      readonly sealedAt: string;
      readonly timestampedAt: string | null;
      readonly certificateSha256: string;
      readonly documentSha256: string;
      readonly contracts: readonly { readonly name: string; readonly sha256: string }[];
      readonly signers: readonly {
        readonly signerId: string;
        readonly action: 'signed' | 'declined' | null;
        readonly typedName: string | null;
        readonly at: string | null;
      }[];
    }
  /** The file names a Request whose executed document this service issued, but is not that file. */
  | { readonly status: 'modified'; readonly fileSha256: string; readonly requestId: string }
  /** Nothing in the file is an executed document of this service. */
  | { readonly status: 'unknown'; readonly fileSha256: string };

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * The Request ids a file mentions, in the order met: the seal's `/Reason` names the
 * Request in plain text, as do the metadata and the pages. At most a few are looked up.
 */
const requestIdsIn = (file: Uint8Array): string[] =>
  [...new Set(Buffer.from(file).toString('latin1').toLowerCase().match(UUID) ?? [])].slice(0, 8);

const valid = (
  deps: ExecutedDocumentDeps,
  kept: StoredExecutedDocument,
): TE.TaskEither<never, Verification> =>
  pipe(
    deps.store.requests.findByVerifiedId(kept.requestId),
    TE.chainW(
      TE.fromOption(() => {
        throw new Error(`executed document of a missing Request ${kept.requestId}`);
      }),
    ),
    TE.chainW((request) =>
      pipe(
        TE.Do,
        TE.apS('document', loadDocument(deps.store, request)),
        TE.apS('acts', deps.store.acts.list(request.id)),
        TE.map(({ document, acts }): Verification => ({
          status: 'valid',
          fileSha256: kept.sha256,
          requestId: request.id,
          completedAt: request.completedAt ?? '',
          sealedAt: kept.signedAt,
          timestampedAt: kept.timestampedAt,
          certificateSha256: kept.certificateSha256,
          documentSha256: document.documentSha256,
          contracts: document.contracts.map((c) => ({ name: c.name, sha256: c.sha256 })),
          signers: request.signers.map((s) => {
            const act = acts.find((a) => a.signerRef === s.signerRef);
            return {
              signerId: s.signerId,
              action: act?.kind ?? null,
              typedName: act?.typedName ?? null,
              at: act?.at ?? null,
            };
          }),
        })),
      ),
    ),
  );

/**
 * `POST /v1.1/verify`: is this file, byte for byte, an executed document this service
 * issued? The kept files are looked up by SHA-256; a file that is not one but names a
 * Request with a kept document was modified. Public: it tells nothing the file does not.
 */
export const verifyExecuted =
  (deps: ExecutedDocumentDeps) =>
  (file: Uint8Array): TE.TaskEither<never, Verification> => {
    const fileSha256 = createHash('sha256').update(file).digest('hex');
    return pipe(
      deps.executedDocuments.findBySha256(fileSha256),
      TE.chainW(
        O.match(
          () =>
            pipe(
              requestIdsIn(file),
              TE.traverseSeqArray((id) => deps.executedDocuments.find(id)),
              TE.map((found): Verification => {
                const named = found.find(O.isSome);
                return named === undefined
                  ? { status: 'unknown', fileSha256 }
                  : { status: 'modified', fileSha256, requestId: named.value.requestId };
              }),
            ),
          (kept) => valid(deps, kept),
        ),
      ),
    );
  };
