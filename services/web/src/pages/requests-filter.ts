import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { ContractSummary } from '@esign/contracts';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { SEARCH_MAX, searchOf } from './common.js';
import {
  createdInputOf,
  createdInstants,
  createdParams,
  createdPhrase,
  NO_DATES,
  type CreatedDates,
} from './requests-dates.js';

export const STATES = ['draft', 'sent', 'completed', 'cancelled', 'expired', 'declined'] as const;

/**
 * The Requests list's filter: a state, part of the title (ADR 3390), the signer the Signers
 * page names (ADR 3200), the contract template a template's page names, the bulk send its
 * progress page names (ADR 3440), and the days it was created in. A value the list does not
 * know (an unknown state, a `contract_id` that is not a positive integer, a `bulk_send_id`
 * that is not a UUID) is left out, not refused; a date that is not one is left out and said
 * (createdInputOf).
 */
export interface RequestsFilter {
  readonly state: (typeof STATES)[number] | undefined;
  /** Part of the title, trimmed and cut to what the API takes (searchOf); '' for none. */
  readonly q: string;
  readonly signer: string;
  readonly contract: string;
  /** A bulk send's id, lower-case; '' for none. */
  readonly bulk: string;
  readonly dates: CreatedDates;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const requestsFilterOf = (ctx: Koa.Context): RequestsFilter => {
  const { state, signer_id: signer, contract_id: contract, bulk_send_id: bulk } = ctx.query;
  return {
    state: STATES.find((s) => s === state),
    q: searchOf(ctx.query.q).q,
    signer: typeof signer === 'string' ? signer : '',
    // As the API takes it: a positive integer of at most 15 digits.
    contract: typeof contract === 'string' && /^[1-9][0-9]{0,14}$/.test(contract) ? contract : '',
    bulk: typeof bulk === 'string' && UUID.test(bulk.toLowerCase()) ? bulk.toLowerCase() : '',
    dates: createdInputOf(ctx).dates,
  };
};

/** The filter as query parameters, in the order the API and the page's links name them. */
export const filterParams = (f: RequestsFilter): Record<string, string> => ({
  ...(f.state ? { state: f.state } : {}),
  ...(f.q ? { q: f.q } : {}),
  ...(f.signer ? { signer_id: f.signer } : {}),
  ...(f.contract ? { contract_id: f.contract } : {}),
  ...(f.bulk ? { bulk_send_id: f.bulk } : {}),
  ...createdParams(f.dates),
});

/** The filter as the API takes it: as filterParams, each day the instant it starts (UTC). */
export const apiFilterParams = (f: RequestsFilter): Record<string, string> => ({
  ...filterParams(f),
  ...createdInstants(f.dates),
});

/** The list's address with the filter `f` (and a page, when given). */
export const listLink = (deps: WebDeps, f: RequestsFilter, pageNo?: number): string => {
  const query = new URLSearchParams({
    ...filterParams(f),
    ...(pageNo === undefined ? {} : { page: String(pageNo) }),
  }).toString();
  return `${deps.base}/requests${query === '' ? '' : `?${query}`}`;
};

/**
 * The name of the template the list is filtered by, read only when it is: `undefined`
 * when there is no such filter, or when the template cannot be read (its id is said instead).
 */
export const templateNameOf = async (
  visitor: Visitor,
  f: Pick<RequestsFilter, 'contract'>,
): Promise<string | undefined> => {
  if (!f.contract) return undefined;
  const found = await visitor.api({
    method: 'GET',
    path: `/v1.1/contracts/${f.contract}`,
    codec: ContractSummary,
  });
  return E.isRight(found) ? found.right.name : undefined;
};

/** The filter form's search box: part of a title, in any case; a search too long is cut and said. */
export const titleSearchField = (q: string, cut: boolean): Html =>
  html`<div class="field search">
    <label for="q">Search titles</label>
    <p class="hint" id="q-hint">
      Part of a Request’s title, in any
      case.${cut ? html` <strong>Your search was cut to its first ${SEARCH_MAX} characters.</strong>` : ''}
    </p>
    <input id="q" name="q" type="search" maxlength="${SEARCH_MAX}" value="${q}" aria-describedby="q-hint" />
  </div>`;

/** The hidden inputs that keep the signer, template and bulk-send filters when the state is chosen. */
export const hiddenFilter = (f: RequestsFilter): Html =>
  html`${
    f.signer ? html`<input type="hidden" name="signer_id" value="${f.signer}" />` : ''
  }${f.contract ? html`<input type="hidden" name="contract_id" value="${f.contract}" />` : ''}${
    f.bulk ? html`<input type="hidden" name="bulk_send_id" value="${f.bulk}" />` : ''
  }`;

/** A bulk send named by its short id, linked to its progress page, the whole id in the link's name. */
const bulkSendName = (deps: WebDeps, id: string): Html =>
  html`<a href="${deps.base}/bulk-sends/${id}"
    ><code>${id.slice(0, 8)}</code><span class="visually-hidden"> (bulk send ${id})</span></a
  >`;

/**
 * The status line: how many Requests the filter lists and what it is, then a link that
 * drops the search, one that drops the signer, one that drops the template, one that drops
 * the bulk send, and one that drops the dates, each keeping the rest of the filter.
 */
export const filterStatus = (
  deps: WebDeps,
  f: RequestsFilter,
  total: number,
  templateName: string | undefined,
): Html =>
  html`<p role="status">
    ${total}
    ${total === 1 ? 'Request' : 'Requests'}${f.state ? html` in state ${f.state}` : ''}${
      f.q ? html` whose title contains “${f.q}”` : ''
    }${f.signer ? html` naming signer <code>${f.signer}</code>` : ''}${
      f.contract
        ? html` made with template
            <a href="${deps.base}/templates/${f.contract}">${templateName ?? f.contract}</a>`
        : ''
    }${f.bulk ? html` made by bulk send ${bulkSendName(deps, f.bulk)}` : ''}${
      f.dates.from || f.dates.to ? ` ${createdPhrase(f.dates)}` : ''
    }.
    ${f.q ? html`<a href="${listLink(deps, { ...f, q: '' })}">Clear the search</a>` : ''}
    ${f.signer ? html`<a href="${listLink(deps, { ...f, signer: '' })}">Show every signer’s</a>` : ''}
    ${f.contract ? html`<a href="${listLink(deps, { ...f, contract: '' })}">Show every template’s</a>` : ''}
    ${f.bulk ? html`<a href="${listLink(deps, { ...f, bulk: '' })}">Not only this bulk send’s</a>` : ''}
    ${f.dates.from || f.dates.to ? html`<a href="${listLink(deps, { ...f, dates: NO_DATES })}">Clear the dates</a>` : ''}
  </p>`;

/**
 * What an empty list says: with no filter, how to make a first Request; filtered, in one
 * sentence, what found nothing (each filter given), and the link to the list unfiltered.
 */
export const emptyListNotice = (
  deps: WebDeps,
  siteId: number,
  f: RequestsFilter,
  templateName: string | undefined,
): Html => {
  const { state, q, signer, contract, bulk } = f;
  const created = createdPhrase(f.dates);
  if (!state && !q && !signer && !contract && !bulk && !created)
    return html`<p class="notice">
      No Requests here yet. Create one with <a href="${deps.base}/requests/new">New Request</a>, or with
      <code>POST /v1.1/sites/${siteId}/requests</code>.
    </p>`;
  const clauses = [
    ...(signer ? [html`name signer “${signer}”`] : []),
    ...(contract
      ? [
          templateName === undefined
            ? html`were made with template ${contract}`
            : html`were made with template “${templateName}”`,
        ]
      : []),
    ...(bulk ? [html`were made by bulk send ${bulkSendName(deps, bulk)}`] : []),
  ];
  const clear = listLink(deps, {
    state: undefined,
    q: '',
    signer: '',
    contract: '',
    bulk: '',
    dates: NO_DATES,
  });
  const noun =
    [state, q, signer, contract, bulk, created].filter(Boolean).length === 1 ? 'filter' : 'filters';
  // The dates and the search qualify "Requests" ("No sent Requests created before 1 Dec 2026
  // whose title contains “lease” name signer …").
  return html`<p class="notice">
    No
    ${state ? `${state} ` : ''}Requests${created ? ` ${created}` : ''}${q ? html` whose title contains “${q}”` : ''}${clauses.map((c, i) => html`${i === 0 ? ' ' : ' and '}${c}`)}.
    <a href="${clear}">Clear the ${noun}</a>
  </p>`;
};

/**
 * A published template's link to the Requests made with it. A draft has none: a Request
 * is made with published templates only, so its list would always be empty.
 */
export const requestsWithTemplate = (deps: WebDeps, c: ContractSummary): Html | '' =>
  c.state === 'published'
    ? html`<p><a href="${deps.base}/requests?contract_id=${c.id}">Requests made with this template</a></p>`
    : '';
