import type { FieldError } from '@esign/contracts';
import type { InvalidRequest } from '../domain/request-creation.js';
import type { RequestState, TransitionError } from '../domain/signature-request.js';
import type { IdempotencyRefusal } from '../ports/idempotency-store.js';

export type Resource = 'site' | 'request' | 'contract' | 'bulk send' | 'signer' | 'attachment';

/** Every expected failure of a use case; the HTTP adapter maps each to a status in one table. */
export type AppError =
  | InvalidRequest
  | { readonly _tag: 'InvalidTemplate'; readonly errors: readonly FieldError[] }
  /** Missing, or not reachable by the caller: the two are indistinguishable on purpose. */
  | { readonly _tag: 'NotFound'; readonly resource: Resource }
  | TransitionError
  /** The executed document exists only once every signer has signed. */
  | { readonly _tag: 'NotCompleted'; readonly state: RequestState }
  /** No certificate to seal executed documents with is configured (ADR 2100). */
  | { readonly _tag: 'SealingUnavailable' }
  /** A test-only token asked to create a real Request, or to act on one (issue #22). */
  | { readonly _tag: 'TestModeOnlyToken'; readonly on: 'create' | 'real_request' }
  /** A Request of the Site names the signer, so it cannot be deleted (ADR 3200). */
  | { readonly _tag: 'SignerInUse' }
  /** A published template never changes (ADR 3240); it may be deleted (ADR 3430). */
  | { readonly _tag: 'TemplatePublished' }
  /** An HTML template has no file to download: its text is in its view (ADR 3270). */
  | { readonly _tag: 'TemplateIsHtml' }
  /** A bulk send that completed without a cancel has nothing left to cancel (ADR 3450). */
  | { readonly _tag: 'BulkSendCompleted' }
  /** A bulk send still making Requests: its Requests are cancelled once it completes (ADR 3480). */
  | { readonly _tag: 'BulkSendRunning' }
  /** A draft template is deleted, not archived (ADR 3250). */
  | { readonly _tag: 'TemplateDraft'; readonly action: 'archive' | 'unarchive' }
  | IdempotencyRefusal;

export const notFound = (resource: Resource): AppError => ({ _tag: 'NotFound', resource });
