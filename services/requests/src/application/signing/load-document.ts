import { createHash } from 'node:crypto';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  canonicalDocument,
  mergeHtml,
  typedFields,
  type ContractFingerprint,
  type TypedField,
} from '../../domain/document.js';
import type { SignatureRequest } from '../../domain/signature-request.js';
import type { Store } from '../../ports/store.js';
import type { TemplateDocument } from '../../ports/template-repository.js';

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** A contract as the signer page shows it. */
export interface ContractShown extends ContractFingerprint {
  /** HTML contracts: the text with render_data merged and escaped. */
  readonly html: string | null;
  /** PDF contracts: the file as uploaded. */
  readonly pdf: Uint8Array | null;
  /** The names of the template's fields. */
  readonly fieldNames: readonly string[];
}

/** A Request's document: its contracts as shown, its fields, and the document-shown hash. */
export interface LoadedDocument {
  readonly contracts: ContractShown[];
  readonly fields: TypedField[];
  readonly documentSha256: string;
  readonly templates: TemplateDocument[];
}

/** The contracts' documents in the Request's order, merged, with the document-shown hash. */
export const loadDocument = (store: Store, request: SignatureRequest): TE.TaskEither<never, LoadedDocument> =>
  pipe(
    store.templates.documents(
      request.siteId,
      request.contracts.map((c) => c.id),
    ),
    TE.map((documents) => {
      const templates = request.contracts.map((c) => {
        const found = documents.find((d) => d.spec.id === c.id);
        // Templates are immutable and referenced by key: a missing one is a bug, not input.
        if (found === undefined) throw new Error(`template ${c.id} of request ${request.id} is missing`);
        return found;
      });
      const contracts = templates.map((t, i): ContractShown => {
        const name = request.contracts[i]!.name;
        const fieldNames = t.spec.fields.map((f) => f.name);
        if (t.spec.kind === 'html') {
          const html = mergeHtml(t.html ?? '', request.renderData);
          return { id: t.spec.id, name, kind: 'html', sha256: sha256(html), html, pdf: null, fieldNames };
        }
        const pdf = t.pdf ?? new Uint8Array();
        return { id: t.spec.id, name, kind: 'pdf', sha256: sha256(pdf), html: null, pdf, fieldNames };
      });
      const fields = typedFields(
        request,
        templates.map((t) => t.spec),
      );
      return {
        contracts,
        fields,
        templates,
        documentSha256: sha256(canonicalDocument(request, contracts, fields)),
      };
    }),
  );

/**
 * What `loadDocument` reads of a Request: equal keys, equal documents (templates are
 * immutable and referenced by key). Lets a document loaded before a lock stand for the
 * one the locked Request would load.
 */
export const documentKey = (request: SignatureRequest): string =>
  JSON.stringify([request.id, request.siteId, request.contracts, request.fields, request.renderData]);
