import type { RemindPolicy } from '../domain/signature-request.js';
import type { Clock } from '../ports/clock.js';
import type { ContractHtmlPolicy } from '../ports/contract-html-policy.js';
import type { DocumentSealer } from '../ports/document-sealer.js';
import type { ExecutedDocumentStore } from '../ports/executed-document-store.js';
import type { Ids } from '../ports/ids.js';
import type { FormTokens } from '../ports/form-tokens.js';
import type { PdfFormReader } from '../ports/pdf-form-reader.js';
import type { PdfRenderer } from '../ports/pdf-renderer.js';
import type { Store, Transact } from '../ports/store.js';
import type { UrlSigner } from '../ports/url-signer.js';
import type { ExecutionUrl } from './views.js';

/** The ports the use cases need; `app.ts` builds them from adapters (for `service.ts`, the composition root), tests from fakes. */
export interface Deps {
  /** Bound to the pool, for reads outside a transaction. */
  readonly store: Store;
  readonly transact: Transact;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly urlSigner: UrlSigner;
  readonly pdf: PdfFormReader;
  /** The one form HTML contracts are kept, shown, printed and hashed in. */
  readonly htmlPolicy: ContractHtmlPolicy;
  readonly pdfRenderer: PdfRenderer;
  /** Tokens in the signer pages' forms. */
  readonly formTokens: FormTokens;
  /** The gateway's public address; Execution URLs start with it. */
  readonly publicBaseUrl: string;
  readonly remindPolicy: RemindPolicy;
  /** Executed documents, sealed and kept once (ADR 2100). */
  readonly executedDocuments: ExecutedDocumentStore;
  /** Seals executed documents; null when no signing certificate is configured. */
  readonly sealer: DocumentSealer | null;
  /** How long an Execution URL opens after it was issued (the send or a reissue; ADR 1321). */
  readonly linkLifetimeMs: number;
}

/** `{PUBLIC_BASE_URL}/sign?r=<request_id>&s=<signer_ref>&signature=<sig>`, for the signer's current link. */
export const executionUrl =
  (deps: Pick<Deps, 'urlSigner' | 'publicBaseUrl'>): ExecutionUrl =>
  (requestId, signerRef, version) => {
    const url = new URL(
      'sign',
      deps.publicBaseUrl.endsWith('/') ? deps.publicBaseUrl : `${deps.publicBaseUrl}/`,
    );
    url.searchParams.set('r', requestId);
    url.searchParams.set('s', signerRef);
    url.searchParams.set('signature', deps.urlSigner.sign(requestId, signerRef, version));
    return url.toString();
  };
