import type {
  FieldValueView,
  RequestFieldValues,
  TemplateFieldValuesList,
  TemplateRequestValues,
} from '@esign/contracts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { TemplateSpec } from '../domain/contract-template.js';
import { typedFields } from '../domain/document.js';
import { fieldEntries, type FieldEntry } from '../domain/field-values.js';
import type { SignatureRequest, RequestState } from '../domain/signature-request.js';
import type { EnteredAct } from '../domain/signing.js';
import type { PageRequest } from '../ports/page.js';
import { siteIds, type Caller } from './caller.js';
import type { Deps } from './deps.js';
import { notFound, type AppError } from './errors.js';
import { pageView } from './paging.js';

// What signers entered, as the executed document shows it: one Request's fields (ADR 3730),
// and one template's across its sent Requests (ADR 3780).

/**
 * Every field of `request` with its value, from the templates of its contracts (`specs`,
 * read in any order) and what its signers entered (`acts`).
 */
const entriesOf = (
  request: SignatureRequest,
  specs: readonly TemplateSpec[],
  acts: readonly EnteredAct[],
): FieldEntry[] => {
  // In the Request's order of contracts: a name's definitions follow it, so a condition or
  // concealing declared on another contract naming the field applies.
  const ordered = request.contracts.flatMap((c) => specs.filter((s) => s.id === c.id));
  return fieldEntries(typedFields(request, ordered), acts);
};

/** One Request's fields with their values, its templates and acts read in two round trips. */
export const readFieldEntries = (
  deps: Pick<Deps, 'store'>,
  request: SignatureRequest,
): TE.TaskEither<never, FieldEntry[]> =>
  pipe(
    TE.Do,
    TE.apS(
      'specs',
      deps.store.templates.specs(
        request.siteId,
        request.contracts.map((c) => c.id),
      ),
    ),
    TE.apS('acts', deps.store.acts.enteredFor([request.id])),
    TE.map(({ specs, acts }) => entriesOf(request, specs, acts.get(request.id) ?? [])),
  );

const viewOf = (f: FieldEntry): FieldValueView => ({
  name: f.name,
  type: f.type,
  assigned_to: f.assignedTo,
  value: f.value,
  filled_at: f.filledAt,
});

const fieldValueViews = (
  request: SignatureRequest,
  specs: readonly TemplateSpec[],
  acts: readonly EnteredAct[],
): FieldValueView[] => entriesOf(request, specs, acts).map(viewOf);

/**
 * `GET /v1.1/requests/:id/field_values` (ADR 3730): every field with the value the executed
 * document shows for it, from the Request's templates and what its signers entered.
 */
export const listFieldValues =
  (deps: Pick<Deps, 'store'>) =>
  (input: {
    readonly caller: Caller;
    readonly requestId: string;
  }): TE.TaskEither<AppError, RequestFieldValues> =>
    pipe(
      deps.store.requests.find(input.requestId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('request'))),
      TE.chainW((request) => readFieldEntries(deps, request)),
      TE.map((entries) => ({ data: entries.map(viewOf) })),
    );

/** One Request's values of the template's fields (`names`, in the template's order). */
const requestValues = (
  request: SignatureRequest,
  names: readonly string[],
  specs: readonly TemplateSpec[],
  acts: readonly EnteredAct[],
): TemplateRequestValues => {
  const views = fieldValueViews(request, specs, acts);
  return {
    request_id: request.id,
    title: request.title ?? null,
    state: request.state,
    // The list keeps only Requests with a sending time (`sent`); creation is never reached.
    sent_at: request.sentAt ?? request.createdAt,
    completed_at: request.completedAt,
    fields: names.flatMap((name) => views.filter((f) => f.name === name)),
  };
};

/**
 * `GET /v1.1/contracts/:id/field_values` (ADR 3780): a page of the template's Requests that
 * were sent (newest first; with `state`, only those in it), each with the values of the
 * template's fields as `GET /v1.1/requests/:id/field_values` answers them. Four reads a
 * page, whatever its size: the template, the Requests, their contracts' templates, what
 * their signers entered.
 */
export const listTemplateFieldValues =
  (deps: Pick<Deps, 'store'>) =>
  (input: {
    readonly caller: Caller;
    readonly templateId: number;
    readonly page: PageRequest;
    readonly state?: RequestState | undefined;
  }): TE.TaskEither<AppError, TemplateFieldValuesList> =>
    pipe(
      deps.store.templates.find(input.templateId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('contract'))),
      TE.chainW((template) =>
        pipe(
          deps.store.requests.list(template.siteId, input.page, {
            contractId: template.id,
            sent: true,
            state: input.state,
          }),
          TE.chainW((found) =>
            pipe(
              TE.Do,
              TE.apS(
                'specs',
                deps.store.templates.specs(template.siteId, [
                  ...new Set(found.items.flatMap((r) => r.contracts.map((c) => c.id))),
                ]),
              ),
              TE.apS('acts', deps.store.acts.enteredFor(found.items.map((r) => r.id))),
              TE.map(({ specs, acts }) => {
                const names = template.fields.map((f) => f.name);
                return pageView(input.page, found, (r) =>
                  requestValues(r, names, specs, acts.get(r.id) ?? []),
                );
              }),
            ),
          ),
        ),
      ),
    );
