import type { RemindPolicy } from '../domain/signature-request.js';
import type { AuthPolicy } from '../domain/signer-authentication.js';
import type { BrandingStore } from '../ports/branding-store.js';
import type { CodeHasher } from '../ports/code-hasher.js';
import type { Clock } from '@esign/contracts';
import type { ContractHtmlPolicy } from '../ports/contract-html-policy.js';
import type { DocumentSealer } from '../ports/document-sealer.js';
import type { ExecutedDocumentStore } from '../ports/executed-document-store.js';
import type { Ids } from '../ports/ids.js';
import type { FormTokens } from '../ports/form-tokens.js';
import type { PdfFormReader } from '../ports/pdf-form-reader.js';
import type { PdfRenderer } from '../ports/pdf-renderer.js';
import type { Autocommit, Store, Transact } from '../ports/store.js';
import type { UrlSigner } from '../ports/url-signer.js';
import type { ExecutionUrl } from './views.js';

/** The ports the use cases need; `app.ts` builds them from adapters (for `service.ts`, the composition root), tests from fakes. */
export interface Deps {
  /** Bound to the pool, for reads outside a transaction. */
  readonly store: Store;
  readonly transact: Transact;
  /** One connection, no transaction: for work that writes in one statement at most (ADR 2640). */
  readonly autocommit: Autocommit;
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
  /** Signer authentication (ADR 2001): the hasher of codes, the limits, and the passes a right code earns. */
  readonly codeHasher: CodeHasher;
  readonly authPolicy: AuthPolicy;
  /** Tokens proving a signer passed their check; they live `authPolicy.passSeconds`. */
  readonly authTokens: FormTokens;
  /** A fresh 6-digit one-time code. */
  readonly oneTimeCode: () => string;
  /** How long an Execution URL opens after it was issued (the send or a reissue; ADR 1321). */
  readonly linkLifetimeMs: number;
  /** The bytes of a Site's current logo (branding, ADR 2301), for the executed PDF's audit page. */
  readonly siteLogo?: BrandingStore['logo'];
}

/** A signer's link to their copy of the executed PDF, working until `expiresAt` (ADR 2002). */
export type CopyUrl = (requestId: string, signerRef: string, expiresAt: string) => string;

/** What a copy link's signature covers besides the Request: the signer and the expiry (unix seconds). */
export const copyBinding = (signerRef: string, expires: string) => `${signerRef}.copy.${expires}`;

/** `{PUBLIC_BASE_URL}/sign/copy?r=<request_id>&s=<signer_ref>&e=<unix expiry>&signature=<sig>` */
export const copyUrl =
  (deps: Pick<Deps, 'urlSigner' | 'publicBaseUrl'>): CopyUrl =>
  (requestId, signerRef, expiresAt) => {
    const expires = String(Math.floor(Date.parse(expiresAt) / 1000));
    const url = new URL(
      'sign/copy',
      deps.publicBaseUrl.endsWith('/') ? deps.publicBaseUrl : `${deps.publicBaseUrl}/`,
    );
    url.searchParams.set('r', requestId);
    url.searchParams.set('s', signerRef);
    url.searchParams.set('e', expires);
    url.searchParams.set('signature', deps.urlSigner.sign(requestId, copyBinding(signerRef, expires)));
    return url.toString();
  };

/** The creator's link in a notice (ADR 2003): the Request's page in the web application. */
export type RequestPageUrl = (requestId: string) => string;

/** `{PUBLIC_BASE_URL}/app/requests/<request_id>`: signed-in, with the executed PDF to download. */
export const requestPageUrl =
  (deps: Pick<Deps, 'publicBaseUrl'>): RequestPageUrl =>
  (requestId) =>
    new URL(
      `app/requests/${encodeURIComponent(requestId)}`,
      deps.publicBaseUrl.endsWith('/') ? deps.publicBaseUrl : `${deps.publicBaseUrl}/`,
    ).toString();

/**
 * `{PUBLIC_BASE_URL}/sign?r=<request_id>&s=<signer_ref>&signature=<sig>`, for the signer's
 * current link. One instance signs each link once and hands it out again after: a send's
 * answer and its `request.sent` carry the same links, and each is an HMAC and a URL built
 * (in the bench's sends, a signer's two were 7–8 % of the requests service's main-thread
 * samples on-CPU: session 52). Make one per operation; it keeps every link it made.
 */
export const executionUrl = (deps: Pick<Deps, 'urlSigner' | 'publicBaseUrl'>): ExecutionUrl => {
  const base = new URL(
    'sign',
    deps.publicBaseUrl.endsWith('/') ? deps.publicBaseUrl : `${deps.publicBaseUrl}/`,
  ).href;
  const made = new Map<string, string>();
  return (requestId, signerRef, version) => {
    const key = `${version}\n${requestId}\n${signerRef}`;
    let url = made.get(key);
    if (url === undefined) {
      // The query a URL's searchParams would serialize, built once rather than after each of three sets.
      const query = new URLSearchParams([
        ['r', requestId],
        ['s', signerRef],
        ['signature', deps.urlSigner.sign(requestId, signerRef, version)],
      ]);
      url = `${base}?${query.toString()}`;
      made.set(key, url);
    }
    return url;
  };
};
