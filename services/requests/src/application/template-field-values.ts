import type { TemplateFieldValuesList, TemplateRequestValues } from '@esign/contracts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { TemplateSpec } from '../domain/contract-template.js';
import { typedFields } from '../domain/document.js';
import { fieldEntries } from '../domain/field-values.js';
import type { SignatureRequest, RequestState } from '../domain/signature-request.js';
import type { SignerAct } from '../domain/signing.js';
import type { PageRequest } from '../ports/page.js';
import { siteIds, type Caller } from './caller.js';
import type { Deps } from './deps.js';
import { notFound, type AppError } from './errors.js';
import { pageView } from './paging.js';

// What signers entered in one template's fields, across its sent Requests (ADR 3780).

/** One Request's values of the template's fields (`names`, in the template's order). */
const requestValues = (
  request: SignatureRequest,
  names: readonly string[],
  specs: readonly TemplateSpec[],
  acts: readonly SignerAct[],
): TemplateRequestValues => {
  // Every contract's definitions, as the executed document reads them (a name on two
  // contracts, a condition or concealing declared on the other one).
  const ordered = request.contracts.flatMap((c) => specs.filter((s) => s.id === c.id));
  const entries = fieldEntries(typedFields(request, ordered), acts);
  return {
    request_id: request.id,
    title: request.title ?? null,
    state: request.state,
    // The list keeps only Requests with a sending time (`sent`); creation is never reached.
    sent_at: request.sentAt ?? request.createdAt,
    completed_at: request.completedAt,
    fields: names.flatMap((name) => {
      const f = entries.find((e) => e.name === name);
      return f === undefined
        ? []
        : [{ name, type: f.type, assigned_to: f.assignedTo, value: f.value, filled_at: f.filledAt }];
    }),
  };
};

/**
 * `GET /v1.1/contracts/:id/field_values` (ADR 3780): a page of the template's Requests that
 * were sent (newest first; with `state`, only those in it), each with the values of the
 * template's fields as `GET /v1.1/requests/:id/field_values` answers them. Four reads a
 * page, whatever its size: the template, the Requests, their contracts' templates, their
 * signers' acts.
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
              TE.apS('acts', deps.store.acts.listFor(found.items.map((r) => r.id))),
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
