import type { ContractList, ContractView, HistoryOrder, RequestEventList } from '@esign/contracts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { PageRequest } from '../ports/page.js';
import type { TemplateFilter } from '../ports/template-repository.js';
import { reachSite, siteIds, type Caller } from './caller.js';
import type { Deps } from './deps.js';
import { notFound, type AppError } from './errors.js';
import { pageView } from './paging.js';
import { contractSummary, contractView } from './views.js';

// A Site's contract templates read: one, its PDF file (ADR 3270), its history (ADR 3720),
// and a page of them.

export const getContract =
  (deps: Pick<Deps, 'store'>) =>
  (input: { readonly caller: Caller; readonly templateId: number }): TE.TaskEither<AppError, ContractView> =>
    pipe(
      deps.store.templates.find(input.templateId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('contract'))),
      TE.map(contractView),
    );

/**
 * `GET /v1.1/contracts/:id/events` (ADR 3720): the template's own entries of its Site's feed
 * (ADR 3700), oldest first or newest first, with `types` only those, each as its webhook
 * carried it. A deleted template is not found, as it is not by `GET /v1.1/contracts/:id`.
 */
export const listContractEvents =
  (deps: Pick<Deps, 'store'>) =>
  (input: {
    readonly caller: Caller;
    readonly templateId: number;
    readonly page: PageRequest;
    readonly order?: HistoryOrder;
    readonly types?: readonly string[];
  }): TE.TaskEither<AppError, RequestEventList> =>
    pipe(
      deps.store.templates.find(input.templateId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('contract'))),
      TE.chainW((template) =>
        deps.store.requests.history(
          { contractId: template.id, siteId: template.siteId },
          input.page,
          input.order ?? 'asc',
          input.types,
        ),
      ),
      TE.map((page) => pageView(input.page, page, (entry) => entry)),
    );

/**
 * `GET /v1.1/contracts/:id/document` (ADR 3270): a PDF template's file as it was uploaded,
 * whatever its state; an HTML template's text is its view's `html`, so it has none.
 */
export const contractDocument =
  (deps: Pick<Deps, 'store'>) =>
  (input: {
    readonly caller: Caller;
    readonly templateId: number;
  }): TE.TaskEither<AppError, { readonly name: string; readonly sha256: string; readonly pdf: Uint8Array }> =>
    pipe(
      deps.store.templates.find(input.templateId, siteIds(input.caller)),
      TE.chainW(TE.fromOption(() => notFound('contract'))),
      TE.chainW((template) =>
        template.kind === 'html'
          ? TE.left<AppError>({ _tag: 'TemplateIsHtml' })
          : pipe(
              deps.store.templates.documents(template.siteId, [template.id]),
              TE.chainW((documents) => {
                const pdf = documents[0]?.pdf;
                // Gone between the two reads: deleted as a draft meanwhile (ADR 3240).
                return pdf == null
                  ? TE.left<AppError>(notFound('contract'))
                  : TE.right({ name: template.name, sha256: documents[0]!.sha256, pdf });
              }),
            ),
      ),
    );

export const listContracts =
  (deps: Pick<Deps, 'store'>) =>
  (input: {
    readonly caller: Caller;
    readonly siteId: number;
    readonly page: PageRequest;
    readonly filter: TemplateFilter;
  }): TE.TaskEither<AppError, ContractList> =>
    pipe(
      TE.fromEither(reachSite(input.caller, input.siteId)),
      TE.chainW((site) => deps.store.templates.list(site.id, input.page, input.filter)),
      TE.map((page) => pageView(input.page, page, contractSummary)),
    );
