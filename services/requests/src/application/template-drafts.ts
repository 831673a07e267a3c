import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { isoNow, type ContractView, type CreateContractBody, type PatchContractBody } from '@esign/contracts';
import { replaceDraft, type NewTemplate, type TemplateWithHtml } from '../domain/contract-template.js';
import type { Store } from '../ports/store.js';
import type { Caller } from './caller.js';
import type { Deps } from './deps.js';
import type { AppError } from './errors.js';
import type { Idempotency, Outcome } from './idempotency.js';
import { toldOf } from './template-events.js';
import { changeTemplate, prepare } from './templates.js';

// A draft template changed: replaced whole (`PUT`, ADR 3240), or its name or fields alone
// (`PATCH`, ADR 3890). A published template never changes: 409.

type Prepared = { readonly template: NewTemplate; readonly pdf: Uint8Array | null };

/** Stores `next` in the draft's place and tells of it; a published template is a 409. */
const replaced = (
  deps: Pick<Deps, 'clock' | 'ids'>,
  store: Store,
  current: TemplateWithHtml,
  { template, pdf }: Prepared,
): TE.TaskEither<AppError, TemplateWithHtml> => {
  const next = replaceDraft(current, template);
  return next._tag === 'Published'
    ? TE.left<AppError>({ _tag: 'TemplatePublished' })
    : pipe(
        store.templates.replace(current.id, next.template, pdf),
        TE.chain((stored) => toldOf(deps, store, 'contract.updated', stored)),
      );
};

/**
 * `PUT /v1.1/contracts/:id` (ADR 3240): a draft template replaced by the body, checked as a
 * create's is (an HTML body sanitised and its tokens read, a PDF's form fields read from
 * the file); the id and creation time stay. A published template is a 409.
 */
export const replaceContract =
  (deps: Pick<Deps, 'transact' | 'pdf' | 'clock' | 'htmlPolicy' | 'ids'>) =>
  (input: {
    readonly caller: Caller;
    readonly templateId: number;
    readonly body: CreateContractBody;
    readonly idempotency?: Idempotency;
  }): TE.TaskEither<AppError, Outcome<ContractView>> =>
    changeTemplate(deps, input, (store, current) =>
      pipe(
        prepare(deps, current.siteId, input.body),
        TE.chainW((prepared) => replaced(deps, store, current, prepared)),
      ),
    );

/** The PDF file a draft PDF template keeps, or none for an HTML one. */
const storedPdf = (store: Store, current: TemplateWithHtml): TE.TaskEither<never, Uint8Array | null> =>
  current.kind === 'html'
    ? TE.right(null)
    : pipe(
        store.templates.documents(current.siteId, [current.id]),
        TE.map((documents) => documents.find((d) => d.spec.id === current.id)?.pdf ?? null),
      );

/**
 * The `PUT` body a `PATCH` stands for: the draft's own document, with the name and fields
 * the patch gives. Only with `fields`: an HTML template's declared ones are kept as they
 * are otherwise, and a PDF's rules are not kept apart from its fields to be given again.
 */
const bodyWith = (
  current: TemplateWithHtml,
  pdf: Uint8Array | null,
  patch: PatchContractBody & { readonly fields: NonNullable<PatchContractBody['fields']> },
): CreateContractBody => {
  const name = patch.name ?? current.name;
  return current.html !== null
    ? { type: 'html', name, html: current.html, fields: patch.fields }
    : {
        type: 'pdf',
        name,
        pdf: Buffer.from(pdf ?? new Uint8Array()).toString('base64'),
        fields: patch.fields,
      };
};

/**
 * `PATCH /v1.1/contracts/:id` (ADR 3890): a draft template's name, fields or both, without
 * its document. New fields are checked as a `PUT` with the stored document would check
 * them (an HTML template's tokens and fields, a PDF's rules against its own fields, read
 * from the kept file); a new name alone changes nothing else. A published template is a 409.
 */
export const patchContract =
  (deps: Pick<Deps, 'transact' | 'pdf' | 'clock' | 'htmlPolicy' | 'ids'>) =>
  (input: {
    readonly caller: Caller;
    readonly templateId: number;
    readonly body: PatchContractBody;
    readonly idempotency?: Idempotency;
  }): TE.TaskEither<AppError, Outcome<ContractView>> =>
    changeTemplate(deps, input, (store, current) => {
      if (current.state === 'published') return TE.left<AppError>({ _tag: 'TemplatePublished' });
      const { fields } = input.body;
      return pipe(
        storedPdf(store, current),
        TE.chainW((pdf): TE.TaskEither<AppError, Prepared> =>
          fields === undefined
            ? TE.right({
                template: {
                  ...withoutId(current),
                  name: input.body.name ?? current.name,
                  updatedAt: isoNow(deps.clock),
                },
                pdf,
              })
            : prepare(deps, current.siteId, bodyWith(current, pdf, { ...input.body, fields })),
        ),
        TE.chainW((prepared) => replaced(deps, store, current, prepared)),
      );
    });

const withoutId = ({ id: _id, ...template }: TemplateWithHtml): NewTemplate => template;
