import { isoNow } from '@esign/contracts';
import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { ContractView } from '@esign/contracts';
import { type CopyContractBody, type CreateContractBody } from '@esign/contracts';
import {
  copyTemplate,
  newHtmlTemplate,
  newPdfTemplate,
  publishTemplate,
  type DocumentInfo,
  type NewTemplate,
  type TemplateWithHtml,
} from '../domain/contract-template.js';
import { declarePdfFields } from '../domain/pdf-field-rules.js';
import { deleteTemplate, setArchived } from '../domain/template-retirement.js';
import type { Store } from '../ports/store.js';
import { reachSite, siteIds, type Caller } from './caller.js';
import type { Deps } from './deps.js';
import { notFound, type AppError } from './errors.js';
import { idempotently, transactIdempotently, type Idempotency, type Outcome } from './idempotency.js';
import { toldOf } from './template-events.js';
import { contractView } from './views.js';

const documentInfo = (bytes: Uint8Array): DocumentInfo => ({
  sizeBytes: bytes.byteLength,
  sha256: createHash('sha256').update(bytes).digest('hex'),
});

const invalid = (errors: readonly { path: string; message: string }[]): AppError => ({
  _tag: 'InvalidTemplate',
  errors,
});

/**
 * Reads and checks what the body describes; a PDF's form fields are read from the file,
 * with the rules declared for them (ADR 3670).
 */
export const prepare = (
  deps: Pick<Deps, 'pdf' | 'clock' | 'htmlPolicy'>,
  siteId: number,
  body: CreateContractBody,
): TE.TaskEither<AppError, { template: NewTemplate; pdf: Uint8Array | null }> => {
  const now = isoNow(deps.clock);
  if (body.type === 'html') {
    // The admitted form is the one stored, shown, printed and hashed (ADR 1300).
    return pipe(
      deps.htmlPolicy.admit(body.html),
      E.mapLeft((problems) => invalid(problems.map((message) => ({ path: 'html', message })))),
      E.chain((html) =>
        pipe(
          newHtmlTemplate({
            siteId,
            name: body.name,
            html,
            fields: body.fields ?? [],
            document: documentInfo(Buffer.from(html, 'utf8')),
            now,
          }),
          E.bimap(invalid, (template) => ({ template, pdf: null })),
        ),
      ),
      TE.fromEither,
    );
  }
  const pdf = new Uint8Array(Buffer.from(body.pdf, 'base64'));
  return pipe(
    deps.pdf.readFields(pdf),
    TE.mapLeft((unusable) => invalid([{ path: 'pdf', message: unusable.reason }])),
    TE.chainEitherK((own) =>
      pipe(
        declarePdfFields(own, body.fields ?? []),
        E.chain((fields) =>
          newPdfTemplate({ siteId, name: body.name, fields, document: documentInfo(pdf), now }),
        ),
        E.bimap(invalid, (template) => ({ template, pdf })),
      ),
    ),
  );
};

export const createTemplate =
  (deps: Pick<Deps, 'transact' | 'pdf' | 'clock' | 'htmlPolicy' | 'ids'>) =>
  (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly body: CreateContractBody;
    readonly idempotency?: Idempotency;
  }): TE.TaskEither<AppError, Outcome<ContractView>> =>
    pipe(
      TE.fromEither(reachSite(input.caller, input.siteId)),
      TE.chain((site) =>
        transactIdempotently(deps.transact, site.id, input.idempotency, (store) =>
          pipe(
            prepare(deps, site.id, input.body),
            TE.chainW(({ template, pdf }) => store.templates.insert(template, pdf)),
            TE.chainW((made) => toldOf(deps, store, 'contract.created', made)),
            TE.map(contractView),
          ),
        ),
      ),
    );

/**
 * One call on a template in one transaction: found within the caller's Sites, answered
 * from the Idempotency-Key's record when it was made before, else by `work`, which
 * answers the template it made or changed.
 */
const onTemplate = (
  deps: Pick<Deps, 'transact'>,
  input: { readonly caller: Caller; readonly templateId: number; readonly idempotency?: Idempotency },
  work: (store: Store, found: TemplateWithHtml) => TE.TaskEither<AppError, TemplateWithHtml>,
): TE.TaskEither<AppError, Outcome<ContractView>> =>
  deps.transact((store) =>
    pipe(
      store.templates.find(input.templateId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('contract'))),
      TE.chain((found) =>
        idempotently(
          store,
          found.siteId,
          input.idempotency,
        )(() => pipe(work(store, found), TE.map(contractView))),
      ),
    ),
  );

/** One change of a template (see `onTemplate`), made on the template as locked. */
export const changeTemplate = (
  deps: Pick<Deps, 'transact'>,
  input: { readonly caller: Caller; readonly templateId: number; readonly idempotency?: Idempotency },
  change: (store: Store, template: TemplateWithHtml) => TE.TaskEither<AppError, TemplateWithHtml>,
): TE.TaskEither<AppError, Outcome<ContractView>> =>
  onTemplate(deps, input, (store, found) =>
    pipe(
      store.templates.lock(found.id, [found.siteId]),
      TE.chainW(TE.fromOption(() => notFound('contract'))),
      TE.chain((template) => change(store, template)),
    ),
  );

/**
 * `POST /v1.1/contracts/:id/copy` (ADR 3260): a new draft with a template's content (HTML
 * and fields, or the same PDF), whatever its state, in the template's Site or in `site_id`,
 * another the caller reaches (ADR 3320). The stored HTML is already the sanitizer's form
 * (ADR 1300), so it is copied as it is.
 */
export const copyContract =
  (deps: Pick<Deps, 'transact' | 'clock' | 'ids'>) =>
  (input: {
    readonly caller: Caller;
    readonly templateId: number;
    readonly body: CopyContractBody;
    readonly idempotency?: Idempotency;
  }): TE.TaskEither<AppError, Outcome<ContractView>> => {
    const to = input.body.site_id;
    // A body field, so a 422 at it: a Site the credential does not reach reads as none.
    if (to !== undefined && E.isLeft(reachSite(input.caller, to)))
      return TE.left(invalid([{ path: 'site_id', message: `no site ${to} that this credential reaches` }]));
    return onTemplate(deps, input, (store, source) =>
      pipe(
        source.kind === 'pdf'
          ? pipe(
              store.templates.documents(source.siteId, [source.id]),
              TE.map((documents) => documents[0]?.pdf ?? null),
            )
          : TE.right(null),
        TE.chain((pdf) =>
          store.templates.insert(copyTemplate(source, input.body.name, isoNow(deps.clock), to), pdf),
        ),
        TE.chain((made) => toldOf(deps, store, 'contract.created', made)),
      ),
    );
  };

export const publishContract =
  (deps: Pick<Deps, 'transact' | 'clock' | 'ids'>) =>
  (input: {
    readonly caller: Caller;
    readonly templateId: number;
    readonly idempotency?: Idempotency;
  }): TE.TaskEither<AppError, Outcome<ContractView>> =>
    changeTemplate(deps, input, (store, template) => {
      const { template: published, changed } = publishTemplate(template, isoNow(deps.clock));
      return changed
        ? pipe(
            store.templates.markPublished(published),
            TE.chain(() => toldOf(deps, store, 'contract.published', published)),
          )
        : TE.right(published);
    });

/**
 * `POST /v1.1/contracts/:id/archive` and `…/unarchive` (ADR 3250): a published template
 * left out of new Requests, or let back in; idempotent. A draft is a 409: it is deleted.
 */
export const archiveContract =
  (deps: Pick<Deps, 'transact' | 'clock' | 'ids'>, archived: boolean) =>
  (input: {
    readonly caller: Caller;
    readonly templateId: number;
    readonly idempotency?: Idempotency;
  }): TE.TaskEither<AppError, Outcome<ContractView>> =>
    changeTemplate(deps, input, (store, template) => {
      const set = setArchived(template, archived, isoNow(deps.clock));
      if (set._tag === 'Draft')
        return TE.left<AppError>({ _tag: 'TemplateDraft', action: archived ? 'archive' : 'unarchive' });
      return set.changed
        ? pipe(
            store.templates.markArchived(set.template),
            TE.chain(() =>
              toldOf(deps, store, archived ? 'contract.archived' : 'contract.unarchived', set.template),
            ),
          )
        : TE.right(set.template);
    });

/**
 * `DELETE /v1.1/contracts/:id`: a draft template forgotten (ADR 3240); a published one
 * marked deleted (ADR 3430), kept for the Requests made with it and read by no call again.
 * Either is told by `contract.deleted`, with the template as it was.
 */
export const deleteContract =
  (deps: Pick<Deps, 'transact' | 'ids' | 'clock'>) =>
  (input: { readonly caller: Caller; readonly templateId: number }): TE.TaskEither<AppError, void> =>
    deps.transact((store) =>
      pipe(
        store.templates.lock(input.templateId, siteIds(input.caller)),
        TE.chainW(TE.fromOption(() => notFound('contract'))),
        TE.chainW((current) => {
          const deleted = deleteTemplate(current, isoNow(deps.clock));
          return pipe(
            deleted._tag === 'Remove'
              ? store.templates.remove(current.id)
              : store.templates.markDeleted(deleted.template),
            TE.chain(() => toldOf(deps, store, 'contract.deleted', current)),
            TE.map(() => undefined),
          );
        }),
      ),
    );
