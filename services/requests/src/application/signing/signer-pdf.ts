import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { Deps } from '../deps.js';
import { loadDocument } from './load-document.js';
import { openSigningPage } from './open-signing-page.js';
import type { SigningDeps } from './signer-deps.js';
import type { ExecutionLink, LinkRefusal } from './verify-link.js';

/** `GET /sign/document`: a PDF contract with its pre-filled values, for a live link. */
export const signerPdf =
  (deps: SigningDeps & Pick<Deps, 'pdfRenderer'>) =>
  (
    input: ExecutionLink & { readonly contractId: number },
  ): TE.TaskEither<LinkRefusal | { readonly _tag: 'NoSuchContract' }, { name: string; pdf: Uint8Array }> =>
    pipe(
      openSigningPage(deps)(input),
      TE.chainW((outcome) => {
        const request = outcome._tag === 'Sign' ? outcome.page.request : outcome.request;
        return pipe(
          loadDocument(deps.store, request),
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
      }),
    );
