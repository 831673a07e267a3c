import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  canonicalDocument,
  mergeHtml,
  typedFields,
  type ContractFingerprint,
  type TypedField,
} from '../domain/document.js';
import {
  checkDeclineReason,
  checkSignature,
  fieldsToFill,
  type SignerAct,
  type SubmissionProblem,
} from '../domain/signing.js';
import {
  decline,
  executionAccess,
  sign,
  type ExecutionRefusal,
  type RequestSigner,
  type RequestState,
  type SignatureRequest,
  type Transition,
} from '../domain/signature-request.js';
import type { Store } from '../ports/store.js';
import type { TemplateDocument } from '../ports/template-repository.js';
import { copyUrl, executionUrl, requestPageUrl, type Deps } from './deps.js';
import { envelopes } from './events.js';
import { authenticated } from './signer-authentication.js';

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** What an Execution URL names. */
export interface ExecutionLink {
  readonly requestId: string;
  readonly signerRef: string;
  readonly signature: string;
}

/** Why a signer page does not open (or a submission is not taken): each has its own page and status. */
export type LinkRefusal =
  | { readonly _tag: 'InvalidSignature' }
  | { readonly _tag: 'NoSuchRequest' }
  | { readonly _tag: 'UnknownSigner' }
  | { readonly _tag: 'NotYetSent' }
  | { readonly _tag: 'Expired' }
  /** The sender issued this signer a newer link (ADR 1321). */
  | { readonly _tag: 'Replaced' }
  /** This link outlived its lifetime; the Request may still be open (ADR 1321). */
  | { readonly _tag: 'LinkExpired'; readonly expiredAt: string }
  | Extract<ExecutionRefusal, { _tag: 'NotYourTurn' }>
  /** A template stored before HTML was admitted at creation holds content the page would not show. */
  | { readonly _tag: 'UnshownContent'; readonly contractId: number }
  | { readonly _tag: 'Closed'; readonly state: RequestState; readonly signer: RequestSigner };

/** A contract as the signer page shows it. */
export interface ContractShown extends ContractFingerprint {
  /** HTML contracts: the text with render_data merged and escaped. */
  readonly html: string | null;
  /** PDF contracts: the file as uploaded. */
  readonly pdf: Uint8Array | null;
  /** The names of the template's fields. */
  readonly fieldNames: readonly string[];
}

/** Everything a signing page shows, and the token its forms carry. */
export interface SigningPage {
  readonly request: SignatureRequest;
  readonly signer: RequestSigner;
  readonly contracts: readonly ContractShown[];
  /** Every field of the Request with its definitions. */
  readonly fields: readonly TypedField[];
  /** The fields this signer fills in. */
  readonly mine: readonly TypedField[];
  readonly documentSha256: string;
  readonly formToken: string;
}

export type PageOutcome =
  | { readonly _tag: 'Sign'; readonly page: SigningPage }
  /** The signer has already signed; the Request waits for the others. */
  | { readonly _tag: 'AlreadySigned'; readonly request: SignatureRequest; readonly signer: RequestSigner };

export type SubmitRefusal =
  | LinkRefusal
  /** The form was not one this service issued for this signer and document. */
  | { readonly _tag: 'InvalidFormToken' }
  /** The signer has a check (ADR 2001) and the form carries no pass for it. */
  | { readonly _tag: 'AuthenticationRequired' }
  /** A signer who signed cannot decline afterwards. */
  | { readonly _tag: 'AlreadySigned'; readonly request: SignatureRequest; readonly signer: RequestSigner }
  /** The form is too old: shown again with a fresh token. */
  | { readonly _tag: 'FormTokenExpired'; readonly page: SigningPage }
  /** The document differs from the one the form was shown with: shown again. */
  | { readonly _tag: 'DocumentChanged'; readonly page: SigningPage }
  | {
      readonly _tag: 'InvalidSubmission';
      readonly page: SigningPage;
      readonly problems: readonly SubmissionProblem[];
    };

export interface Evidence {
  readonly ip: string;
  readonly userAgent: string;
  /** The pass a right code earned (signer authentication, ADR 2001). */
  readonly authToken?: string | undefined;
}

export interface SignInput extends ExecutionLink, Evidence {
  readonly formToken: string;
  readonly documentSha256: string;
  /** The form's raw answers by field index. */
  readonly values: ReadonlyMap<number, string>;
  readonly typedName: string | undefined;
  readonly consent: boolean;
  readonly drawnSignature: Uint8Array | null;
}

export interface DeclineInput extends ExecutionLink, Evidence {
  readonly formToken: string;
  readonly documentSha256: string;
  readonly reason: string | undefined;
}

export interface ActDone {
  readonly request: SignatureRequest;
  readonly signer: RequestSigner;
  readonly act: 'signed' | 'declined';
  /** True when this submission repeated one already taken: nothing was recorded. */
  readonly repeated: boolean;
  /** The client's `redirect_url` with `request_id`, `signer_id` and `status` added; null: our own page. */
  readonly redirectTo: string | null;
}

export type SigningDeps = Pick<
  Deps,
  | 'store'
  | 'transact'
  | 'clock'
  | 'ids'
  | 'urlSigner'
  | 'publicBaseUrl'
  | 'formTokens'
  | 'htmlPolicy'
  | 'authTokens'
  | 'linkLifetimeMs'
>;

/** The form token binds the Request, the signer and the document they are shown. */
const formBinding = (request: SignatureRequest, signer: RequestSigner, documentSha256: string): string =>
  `${request.id}\n${signer.signerRef}\n${documentSha256}`;

/**
 * The client's redirect_url with the Request id, the signer's signer_id and what they did
 * added (any parameters of those names it had are replaced; all others kept).
 */
export const redirectTarget = (
  request: SignatureRequest,
  signer: RequestSigner,
  act: 'signed' | 'declined',
): string | null => {
  if (request.redirectUrl === null) return null;
  const url = new URL(request.redirectUrl);
  url.searchParams.set('request_id', request.id);
  url.searchParams.set('signer_id', signer.signerId);
  url.searchParams.set('status', act);
  return url.toString();
};

/** The signature is checked before anything is read; then the Request decides whether the link is live. */
const checkLink = (
  deps: Pick<Deps, 'urlSigner' | 'linkLifetimeMs'>,
  request: O.Option<SignatureRequest>,
  link: ExecutionLink,
  now: string,
): E.Either<LinkRefusal, { request: SignatureRequest; signer: RequestSigner }> => {
  if (O.isNone(request)) return E.left({ _tag: 'NoSuchRequest' });
  const signer = request.value.signers.find((s) => s.signerRef === link.signerRef);
  if (signer === undefined) return E.left({ _tag: 'UnknownSigner' });
  const access = executionAccess(
    request.value,
    { signerRef: link.signerRef, version: deps.urlSigner.versionOf(link.signature) },
    now,
    deps.linkLifetimeMs,
  );
  if (E.isLeft(access)) {
    const refusal = access.left;
    return E.left(refusal._tag === 'Closed' ? { ...refusal, signer } : refusal);
  }
  return E.right({ request: request.value, signer });
};

/** The contracts' documents in the Request's order, merged, with the document-shown hash. */
export const loadDocument = (
  store: Store,
  request: SignatureRequest,
): TE.TaskEither<
  never,
  { contracts: ContractShown[]; fields: TypedField[]; documentSha256: string; templates: TemplateDocument[] }
> =>
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
 * Templates made before ADR 1300 were stored as sent: one the allow-list would now cut
 * is not signed at all, since the page would show less than the PDF and the hash hold.
 */
const shownInFull = (
  deps: Pick<Deps, 'htmlPolicy'>,
  templates: readonly TemplateDocument[],
): E.Either<LinkRefusal, void> => {
  const cut = templates.find((t) => t.spec.kind === 'html' && E.isLeft(deps.htmlPolicy.admit(t.html ?? '')));
  return cut === undefined ? E.right(undefined) : E.left({ _tag: 'UnshownContent', contractId: cut.spec.id });
};

const pageFor = (
  deps: SigningDeps,
  store: Store,
  request: SignatureRequest,
  signer: RequestSigner,
): TE.TaskEither<LinkRefusal, SigningPage> =>
  pipe(
    loadDocument(store, request),
    TE.chainFirstEitherKW(({ templates }) => shownInFull(deps, templates)),
    TE.map(({ contracts, fields, documentSha256 }) => ({
      request,
      signer,
      contracts,
      fields,
      mine: fieldsToFill(fields, signer),
      documentSha256,
      formToken: deps.formTokens.issue(formBinding(request, signer, documentSha256), deps.clock.now()),
    })),
  );

/** `GET /sign`: the page to sign, or why there is none. */
export const openSigningPage =
  (deps: SigningDeps) =>
  (link: ExecutionLink): TE.TaskEither<LinkRefusal, PageOutcome> => {
    if (!deps.urlSigner.verify(link.requestId, link.signerRef, link.signature))
      return TE.left({ _tag: 'InvalidSignature' });
    return pipe(
      deps.store.requests.findByVerifiedId(link.requestId),
      TE.chainEitherKW((found) => checkLink(deps, found, link, deps.clock.now())),
      TE.chainW(({ request, signer }) =>
        signer.state === 'signed'
          ? TE.right<never, PageOutcome>({ _tag: 'AlreadySigned', request, signer })
          : pipe(
              pageFor(deps, deps.store, request, signer),
              TE.map((page): PageOutcome => ({ _tag: 'Sign', page })),
            ),
      ),
    );
  };

/** Where a signer stands after the fact, for the thank-you page: any state, once the link verifies. */
export const signerStatus =
  (deps: Pick<Deps, 'store' | 'urlSigner'>) =>
  (link: ExecutionLink): TE.TaskEither<LinkRefusal, { request: SignatureRequest; signer: RequestSigner }> => {
    if (!deps.urlSigner.verify(link.requestId, link.signerRef, link.signature))
      return TE.left({ _tag: 'InvalidSignature' });
    return pipe(
      deps.store.requests.findByVerifiedId(link.requestId),
      TE.chainEitherKW((found) => {
        if (O.isNone(found)) return E.left<LinkRefusal>({ _tag: 'NoSuchRequest' });
        const signer = found.value.signers.find((s) => s.signerRef === link.signerRef);
        return signer === undefined
          ? E.left<LinkRefusal>({ _tag: 'UnknownSigner' })
          : E.right({ request: found.value, signer });
      }),
    );
  };

/**
 * A signer's act in one transaction that locks the Request: concurrent acts on one
 * Request queue up, so two signers signing at once both count and the last one completes
 * it exactly once. The act, the new state and the events commit together or not at all.
 */
const act =
  <I extends ExecutionLink & Evidence & { formToken: string; documentSha256: string }>(
    deps: SigningDeps,
    kind: 'signed' | 'declined',
    decide: (
      input: I,
      page: SigningPage,
      now: string,
    ) => E.Either<SubmitRefusal, { transition: Transition; act: SignerAct }>,
  ) =>
  (input: I): TE.TaskEither<SubmitRefusal, ActDone> => {
    if (!deps.urlSigner.verify(input.requestId, input.signerRef, input.signature))
      return TE.left({ _tag: 'InvalidSignature' });
    return deps.transact((store) =>
      pipe(
        store.requests.lockByVerifiedId(input.requestId),
        TE.chainW((found): TE.TaskEither<SubmitRefusal, ActDone> => {
          const now = deps.clock.now();
          const signer = O.isSome(found)
            ? found.value.signers.find((s) => s.signerRef === input.signerRef)
            : undefined;
          // A repeated submission (a double click, a back button) lands where the first did.
          if (O.isSome(found) && signer !== undefined && signer.state === kind)
            return TE.right({
              request: found.value,
              signer,
              act: kind,
              repeated: true,
              redirectTo: redirectTarget(found.value, signer, kind),
            });
          if (signer !== undefined && signer.state === 'signed' && O.isSome(found))
            return TE.left({ _tag: 'AlreadySigned', request: found.value, signer });
          return pipe(
            TE.fromEither(checkLink(deps, found, input, now)),
            TE.chainFirstEitherKW(({ request, signer }) =>
              authenticated(deps, request, signer, input.authToken, now),
            ),
            TE.chainW(({ request, signer }) => pageFor(deps, store, request, signer)),
            TE.chainW((page) => TE.fromEither(checkForm(deps, page, input, now))),
            TE.chainEitherKW((page) =>
              pipe(
                decide(input, page, now),
                E.map((decided) => ({ ...decided, previous: page.request })),
              ),
            ),
            TE.chainFirstW(({ transition, previous }) => store.requests.update(previous, transition.request)),
            TE.chainFirstW(({ act }) => store.acts.insert(input.requestId, act)),
            TE.chainFirstW(({ transition }) =>
              store.outbox.append(
                envelopes(
                  {
                    ids: deps.ids,
                    executionUrl: executionUrl(deps),
                    copyUrl: copyUrl(deps),
                    requestPageUrl: requestPageUrl(deps),
                  },
                  transition.request,
                  transition.events,
                ),
              ),
            ),
            TE.map(({ transition }) => {
              const after = transition.request.signers.find((s) => s.signerRef === input.signerRef)!;
              return {
                request: transition.request,
                signer: after,
                act: kind,
                repeated: false,
                redirectTo: redirectTarget(transition.request, after, kind),
              };
            }),
          );
        }),
      ),
    );
  };

/** The form must be ours, recent, and about the document the Request still has. */
const checkForm = (
  deps: SigningDeps,
  page: SigningPage,
  input: { formToken: string; documentSha256: string },
  now: string,
): E.Either<SubmitRefusal, SigningPage> => {
  if (input.documentSha256 !== page.documentSha256) return E.left({ _tag: 'DocumentChanged', page });
  const verdict = deps.formTokens.verify(
    formBinding(page.request, page.signer, page.documentSha256),
    input.formToken,
    now,
  );
  if (verdict === 'invalid') return E.left({ _tag: 'InvalidFormToken' });
  if (verdict === 'expired') return E.left({ _tag: 'FormTokenExpired', page });
  return E.right(page);
};

const evidence = (deps: Pick<Deps, 'authTokens'>, page: SigningPage, input: Evidence, now: string) => ({
  authentication: E.getOrElseW(() => null)(
    authenticated(deps, page.request, page.signer, input.authToken, now),
  ),
  signerRef: page.signer.signerRef,
  signerId: page.signer.signerId,
  contact: page.signer.contact,
  at: now,
  ip: input.ip,
  userAgent: input.userAgent,
  documentSha256: page.documentSha256,
});

/** `POST /sign`: checks every field and the signature, then signs (and maybe completes). */
export const submitSignature = (deps: SigningDeps) =>
  act<SignInput>(deps, 'signed', (input, page, now) =>
    pipe(
      checkSignature(page.mine, input),
      E.mapLeft((problems): SubmitRefusal => ({ _tag: 'InvalidSubmission', page, problems })),
      E.chainW((checked) =>
        pipe(
          sign(page.request, page.signer.signerRef, now),
          // The link was live a moment ago under the same lock: a refusal here is a bug.
          E.mapLeft((error) => {
            throw new Error(`sign refused after checks: ${error._tag}`);
          }),
          E.map((transition) => ({
            transition,
            act: {
              ...evidence(deps, page, input, now),
              kind: 'signed' as const,
              typedName: checked.typedName,
              drawnSignature: input.drawnSignature,
              values: checked.values,
              reason: null,
            },
          })),
        ),
      ),
    ),
  );

/** `POST /sign/decline`: the Request ends as declined; every Execution URL stops working. */
export const declineSigning = (deps: SigningDeps) =>
  act<DeclineInput>(deps, 'declined', (input, page, now) =>
    pipe(
      checkDeclineReason(input.reason),
      E.mapLeft((problems): SubmitRefusal => ({ _tag: 'InvalidSubmission', page, problems })),
      E.chainW((reason) =>
        pipe(
          decline(page.request, page.signer.signerRef, now, reason),
          E.mapLeft((error) => {
            throw new Error(`decline refused after checks: ${error._tag}`);
          }),
          E.map((transition) => ({
            transition,
            act: {
              ...evidence(deps, page, input, now),
              kind: 'declined' as const,
              typedName: null,
              drawnSignature: null,
              values: {},
              reason,
            },
          })),
        ),
      ),
    ),
  );

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
