import { isoNow } from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { TypedField } from '../../domain/document.js';
import { readsOthers, type Answered } from '../../domain/answers.js';
import { attachmentFields } from '../../domain/attachments.js';
import type { KeptAttachment } from '../../ports/attachment-store.js';
import { answeredBy } from '../../domain/field-values.js';
import { fieldsToFill } from '../../domain/signing.js';
import type { RequestSigner, SignatureRequest } from '../../domain/signature-request.js';
import type { Store } from '../../ports/store.js';
import type { TemplateDocument } from '../../ports/template-repository.js';
import type { Deps } from '../deps.js';
import { loadDocument, type ContractShown, type LoadedDocument } from './load-document.js';
import type { SigningDeps } from './signer-deps.js';
import type { LinkRefusal } from './verify-link.js';

/** Everything a signing page shows, and the token its forms carry. */
export interface SigningPage {
  readonly request: SignatureRequest;
  readonly signer: RequestSigner;
  readonly contracts: readonly ContractShown[];
  /** Every field of the Request with its definitions. */
  readonly fields: readonly TypedField[];
  /** The fields this signer fills in. */
  readonly mine: readonly TypedField[];
  /** The fields other signers have signed with, where a condition of `mine` reads them (ADR 3840). */
  readonly answered: readonly Answered[];
  readonly documentSha256: string;
  readonly formToken: string;
  /** The day the page is shown (UTC, YYYY-MM-DD): a date field's bound of `today` (ADR 3620). */
  readonly today: string;
  /** The files this signer uploaded so far, by field name (ADR 3920); read only when they have such a field. */
  readonly attachments: ReadonlyMap<string, KeptAttachment>;
}

/** The form token binds the Request, the signer and the document they are shown. */
export const formBinding = (
  request: SignatureRequest,
  signer: RequestSigner,
  documentSha256: string,
): string => `${request.id}\n${signer.signerRef}\n${documentSha256}`;

/**
 * Templates made before ADR 1300 were stored as sent: one the allow-list would now cut
 * is not signed at all, since the page would show less than the PDF and the hash hold.
 */
export const shownInFull = (
  deps: Pick<Deps, 'htmlPolicy'>,
  templates: readonly TemplateDocument[],
): E.Either<LinkRefusal, void> => {
  const cut = templates.find((t) => t.spec.kind === 'html' && E.isLeft(deps.htmlPolicy.admit(t.html ?? '')));
  return cut === undefined ? E.right(undefined) : E.left({ _tag: 'UnshownContent', contractId: cut.spec.id });
};

/** The files a signer with attachment fields uploaded so far (ADR 3920); none read for another. */
const keptFor = (
  store: Store,
  request: SignatureRequest,
  signer: RequestSigner,
  mine: readonly TypedField[],
): TE.TaskEither<never, ReadonlyMap<string, KeptAttachment>> =>
  attachmentFields(mine).length === 0
    ? TE.right(new Map())
    : pipe(
        store.attachments.keptBy(request.id, signer.signerRef),
        TE.map((kept) => new Map(kept.map((k) => [k.fieldName, k]))),
      );

/**
 * The page of a loaded document, with a fresh form token. What other signers signed with is
 * read (in `store`'s transaction, when there is one) only when a condition of this signer's
 * fields names one of theirs (ADR 3840).
 */
export const pageOf = (
  deps: SigningDeps,
  store: Store,
  request: SignatureRequest,
  signer: RequestSigner,
  { templates, contracts, fields, documentSha256 }: LoadedDocument,
): TE.TaskEither<LinkRefusal, SigningPage> => {
  const mine = fieldsToFill(fields, signer);
  return pipe(
    TE.fromEither(shownInFull(deps, templates)),
    TE.chainW(() =>
      readsOthers(fields, mine, signer)
        ? pipe(
            store.acts.enteredFor([request.id]),
            TE.map((acts) => answeredBy(fields, acts.get(request.id) ?? [], signer)),
          )
        : TE.right([]),
    ),
    TE.chainW((answered) =>
      pipe(
        keptFor(store, request, signer, mine),
        TE.map((attachments) => ({ answered, attachments })),
      ),
    ),
    TE.map(({ answered, attachments }) => {
      const now = isoNow(deps.clock);
      return {
        request,
        signer,
        contracts,
        fields,
        mine,
        answered,
        documentSha256,
        formToken: deps.formTokens.issue(formBinding(request, signer, documentSha256), now),
        today: now.slice(0, 10),
        attachments,
      };
    }),
  );
};

/** Loads the document, then its page. */
export const pageFor = (
  deps: SigningDeps,
  store: Store,
  request: SignatureRequest,
  signer: RequestSigner,
): TE.TaskEither<LinkRefusal, SigningPage> =>
  pipe(
    loadDocument(store, request),
    TE.chainW((document) => pageOf(deps, store, request, signer, document)),
  );
