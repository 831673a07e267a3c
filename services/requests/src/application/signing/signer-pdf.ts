import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { Deps } from '../deps.js';
import { loadDocument } from './load-document.js';
import type { SigningDeps } from './signer-deps.js';
import { shownInFull } from './signing-page.js';
import { liveSigner, type ExecutionLink, type LinkRefusal } from './verify-link.js';

/**
 * `GET /sign/document`: a PDF contract with its pre-filled values, for a live link. The
 * link is checked as `GET /sign` checks it (a signer yet to sign is refused a document
 * the page would not show in full), with the documents loaded once.
 */
export const signerPdf =
  (deps: SigningDeps & Pick<Deps, 'pdfRenderer'>) =>
  (
    input: ExecutionLink & { readonly contractId: number },
  ): TE.TaskEither<LinkRefusal | { readonly _tag: 'NoSuchContract' }, { name: string; pdf: Uint8Array }> =>
    pipe(
      liveSigner(deps, input),
      TE.chainW(({ request, signer }) =>
        pipe(
          loadDocument(deps.store, request),
          TE.chainFirstEitherKW(({ templates }) =>
            signer.state === 'signed' ? E.right(undefined) : shownInFull(deps, templates),
          ),
        ),
      ),
      TE.chainW(({ contracts, fields, templates }) => {
        const index = contracts.findIndex((c) => c.id === input.contractId && c.kind === 'pdf');
        if (index === -1) return TE.left({ _tag: 'NoSuchContract' as const });
        const values = templates[index]!.spec.fields.flatMap((definition) => {
          const field = fields.find((f) => f.name === definition.name);
          return field?.defaultValue === null || field === undefined
            ? []
            : [{ definition, value: field.defaultValue }];
        });
        return pipe(
          deps.pdfRenderer.prefill(contracts[index]!.pdf!, values),
          TE.map((pdf) => ({ name: contracts[index]!.name, pdf })),
        );
      }),
    );
