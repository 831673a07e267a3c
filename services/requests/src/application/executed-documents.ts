import { createHash } from 'node:crypto';
import * as A from 'fp-ts/lib/Array.js';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { concealedText, isConcealed } from '../domain/field-values.js';
import { executedValue, type FieldValue, type SignerAct } from '../domain/signing.js';
import type { SignatureRequest } from '../domain/signature-request.js';
import { kindOf, type TypedField } from '../domain/document.js';
import type { DocumentSealer } from '../ports/document-sealer.js';
import type { ExecutedDocumentStore, StoredExecutedDocument } from '../ports/executed-document-store.js';
import type { ExecutedAttachment, ExecutedContract } from '../ports/pdf-renderer.js';
import type { Store } from '../ports/store.js';
import type { TemplateDocument } from '../ports/template-repository.js';
import { siteIds, type Caller } from './caller.js';
import type { Deps } from './deps.js';
import { notFound, type AppError } from './errors.js';
import { loadDocument, type ContractShown } from './signing/load-document.js';
import { sharedLocale } from '../domain/languages.js';

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** What building and keeping executed documents needs beyond the common ports. */
export interface ExecutedDocumentDeps extends Pick<Deps, 'store' | 'pdfRenderer' | 'clock'> {
  readonly executedDocuments: ExecutedDocumentStore;
  /** Null when no signing certificate is configured: executed documents cannot be issued. */
  readonly sealer: DocumentSealer | null;
  /** The bytes of a Site's current logo, for the audit page (ADR 2301); absent: no logo drawn. */
  readonly siteLogo?: Deps['siteLogo'];
}

type ExecutedDocumentError = AppError;

export const executedFilename = (requestId: string) => `request-${requestId}-executed.pdf`;

/**
 * Renders, seals and keeps the executed document of a completed Request, once: when one
 * is kept already (or another replica keeps one first) that one is answered, so every
 * download is the same file.
 */
export const issueExecutedDocument =
  (deps: ExecutedDocumentDeps) =>
  (request: SignatureRequest): TE.TaskEither<ExecutedDocumentError, StoredExecutedDocument> =>
    pipe(
      deps.executedDocuments.find(request.id),
      TE.chainW(
        O.match(
          () => buildAndKeep(deps, request),
          (kept) => TE.right(kept),
        ),
      ),
    );

const logoOf = (
  deps: ExecutedDocumentDeps,
  request: SignatureRequest,
): TE.TaskEither<never, O.Option<Uint8Array>> => {
  const sha = request.branding?.logoSha256;
  return sha == null || deps.siteLogo === undefined ? TE.right(O.none) : deps.siteLogo(request.siteId, sha);
};

/**
 * The files each signer signed with (ADR 3920): for every attachment field holding a name in
 * their act, the file kept for it.
 */
const signedFiles = (
  store: Store,
  request: SignatureRequest,
  fields: readonly TypedField[],
  acts: readonly SignerAct[],
): TE.TaskEither<never, ExecutedAttachment[]> =>
  pipe(
    fields.flatMap((field) => {
      const act = acts.find((a) => a.kind === 'signed' && a.signerId === field.assignedTo);
      const value = act?.values[field.name];
      return kindOf(field) === 'attachment' && act !== undefined && typeof value === 'string' && value !== ''
        ? [
            pipe(
              store.attachments.file(request.id, act.signerRef, field.name),
              TE.map(
                O.map((file) => ({
                  field: field.name,
                  signerId: act.signerId,
                  fileName: file.fileName,
                  contentType: file.contentType,
                  content: file.content,
                })),
              ),
            ),
          ]
        : [];
    }),
    A.sequence(TE.ApplicativeSeq),
    TE.map(A.compact),
  );

const buildAndKeep = (
  deps: ExecutedDocumentDeps,
  request: SignatureRequest,
): TE.TaskEither<ExecutedDocumentError, StoredExecutedDocument> => {
  const sealer = deps.sealer;
  if (sealer === null) return TE.left({ _tag: 'SealingUnavailable' });
  if (request.state !== 'completed' || request.completedAt === null)
    return TE.left({ _tag: 'NotCompleted', state: request.state });
  const completedAt = request.completedAt;
  return pipe(
    TE.Do,
    TE.apS('document', loadDocument(deps.store, request)),
    TE.apS('logo', logoOf(deps, request)),
    TE.apS('acts', deps.store.acts.list(request.id)),
    TE.apS('corrections', deps.store.requests.corrections(request.id)),
    TE.bindW('attachments', ({ document, acts }) => signedFiles(deps.store, request, document.fields, acts)),
    TE.chainW(({ document, acts, logo, corrections, attachments }) =>
      deps.pdfRenderer.executed({
        requestId: request.id,
        siteName: request.siteName,
        locale: sharedLocale(request),
        ...(O.isSome(logo) && { logoPng: logo.value }),
        documentSha256: document.documentSha256,
        createdAt: request.createdAt,
        sentAt: request.sentAt,
        completedAt,
        testMode: request.testMode,
        attachments,
        contracts: document.contracts.map((c, i) =>
          executedContract(c, document.templates[i]!, document.fields, acts),
        ),
        signers: request.signers.map((s) => {
          const act = acts.find((a) => a.signerRef === s.signerRef) ?? null;
          // The audit trail names the address acted from, else the one sent to.
          const contact = act?.contact ?? s.contact;
          return {
            signerId: s.signerId,
            email: contact.email,
            mobileNumber: contact.mobileNumber,
            act,
            viewedAt: s.viewedAt,
            corrections: corrections.filter((c) => c.signerRef === s.signerRef),
          };
        }),
      }),
    ),
    TE.chainW((pdf) => {
      const signedAt = deps.clock.now();
      return pipe(
        sealer.seal(pdf, { reason: `Executed document of Request ${request.id}`, signingTime: signedAt }),
        TE.chainW((seal) =>
          deps.executedDocuments.insertOnce({
            requestId: request.id,
            pdf: seal.pdf,
            sha256: sha256(seal.pdf),
            certificateSha256: seal.certificateSha256,
            signedAt: signedAt.toISOString(),
            timestampedAt: seal.timestampedAt,
          }),
        ),
      );
    }),
  );
};

/**
 * `GET /v1.1/requests/:id/download`: the executed document of a completed Request of a
 * site the caller reaches, byte for byte the file kept when it was first issued.
 */
export const downloadExecuted =
  (deps: ExecutedDocumentDeps) =>
  (input: {
    readonly caller: Caller;
    readonly requestId: string;
  }): TE.TaskEither<
    ExecutedDocumentError,
    { readonly filename: string; readonly pdf: Uint8Array; readonly sha256: string }
  > =>
    pipe(
      deps.store.requests.find(input.requestId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('request'))),
      TE.chainW((request) =>
        request.state !== 'completed' || request.completedAt === null
          ? TE.left<ExecutedDocumentError, never>({ _tag: 'NotCompleted', state: request.state })
          : issueExecutedDocument(deps)(request),
      ),
      TE.map((kept) => ({ filename: executedFilename(kept.requestId), pdf: kept.pdf, sha256: kept.sha256 })),
    );

/** What one run of the background issuer did. */
export interface IssueRun {
  readonly issued: number;
  /** Requests whose document could not be issued now (kept for the next run), and why. */
  readonly failed: readonly { readonly requestId: string; readonly reason: string }[];
}

/**
 * How long a Request whose executed document could not be issued waits before the next
 * try, after `attempts` failed ones: 10 s, doubling, at most an hour (ADR 2920). A TSA
 * outage is retried soon; a document that cannot be built stops costing a render a run.
 */
export const issueRetryDelayMs = (attempts: number): number =>
  Math.min(3_600_000, 10_000 * 2 ** Math.min(attempts, 20));

/**
 * How long the issuer holds the Requests it claims (ADR 2930): longer than a batch takes
 * (five renders and seals, each TSA call at most 10 s), so no other replica issues them
 * meanwhile; a replica that dies mid-batch leaves them due again after it.
 */
export const ISSUE_LEASE_MS = 120_000;

/**
 * Issues the executed documents of completed Requests whose turn has come, at most
 * `limit`, the most recently due first: Requests that just completed, and those
 * completed before documents were kept. Each is claimed, so the issuers of other
 * replicas, woken by the same completion, take other ones. One that fails (a TSA outage,
 * a template pdf-lib cannot read) is reported and put back with a growing delay, so it
 * does not hold the others up.
 */
export const issueMissingExecutedDocuments =
  (deps: ExecutedDocumentDeps) =>
  (limit: number): TE.TaskEither<never, IssueRun> =>
    deps.sealer === null
      ? TE.right({ issued: 0, failed: [] })
      : pipe(
          deps.executedDocuments.claim(limit, ISSUE_LEASE_MS),
          TE.chain((queued) =>
            TE.rightTask(async () => {
              let issued = 0;
              const failed: { requestId: string; reason: string }[] = [];
              for (const { requestId: id, attempts } of queued) {
                let reason: string;
                try {
                  const found = await deps.store.requests.findByVerifiedId(id)();
                  if (E.isLeft(found) || O.isNone(found.right)) continue;
                  const result = await issueExecutedDocument(deps)(found.right.value)();
                  if (E.isRight(result)) {
                    issued++;
                    continue;
                  }
                  reason = result.left._tag;
                } catch (error) {
                  reason = error instanceof Error ? error.message : String(error);
                }
                failed.push({ requestId: id, reason });
                await deps.executedDocuments.postpone(id, reason, issueRetryDelayMs(attempts))();
              }
              return { issued, failed };
            }),
          ),
        );

export const executedContract = (
  contract: ContractShown,
  template: TemplateDocument,
  fields: readonly TypedField[],
  acts: readonly SignerAct[],
): ExecutedContract => {
  const executedFields = template.spec.fields.map((definition) => {
    const field = fields.find((f) => f.name === definition.name);
    const signature =
      definition.type === 'signature'
        ? (acts.find((a) => a.kind === 'signed' && a.signerId === field?.assignedTo) ?? null)
        : null;
    const entered: FieldValue | null = field === undefined ? null : executedValue(field, acts);
    // Concealed where any contract naming it asks (ADR 3740); the API answers it whole.
    const value =
      typeof entered === 'string' && entered !== '' && field !== undefined && isConcealed(field)
        ? concealedText(entered)
        : entered;
    return {
      name: definition.name,
      definition,
      value: definition.type === 'signature' ? null : value,
      signerId: field?.assignedTo ?? null,
      signature,
    };
  });
  return contract.kind === 'html'
    ? {
        kind: 'html',
        id: contract.id,
        name: contract.name,
        html: contract.html ?? '',
        sha256: contract.sha256,
        fields: executedFields,
      }
    : {
        kind: 'pdf',
        id: contract.id,
        name: contract.name,
        pdf: contract.pdf ?? new Uint8Array(),
        sha256: contract.sha256,
        fields: executedFields,
      };
};
