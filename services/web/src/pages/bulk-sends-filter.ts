import type Koa from 'koa';
import type { ContractSummary } from '@esign/contracts';
import type { WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import {
  createdFields,
  createdInputOf,
  createdInstants,
  createdParams,
  createdPhrase,
  NO_DATES,
  STARTED,
  type CreatedDates,
  type CreatedInput,
} from './requests-dates.js';

export const BULK_SEND_STATES = ['running', 'completed'] as const;

/**
 * The bulk sends list's filter: a state, the contract template a template's page names
 * (a bulk send that named it among its templates), and the days it was started in. As on
 * the Requests page, a value the list does not know (an unknown state, a `contract_id` that
 * is not a positive integer) is left out, not refused; a date that is not one is left out
 * and said (createdInputOf).
 */
export interface BulkSendsFilter {
  readonly state: (typeof BULK_SEND_STATES)[number] | undefined;
  readonly contract: string;
  readonly dates: CreatedDates;
}

export const NO_FILTER: BulkSendsFilter = { state: undefined, contract: '', dates: NO_DATES };

/** The days started in, as asked for: the Requests page's date filter, worded "Started". */
export const startedInputOf = (ctx: Koa.Context): CreatedInput => createdInputOf(ctx, STARTED);

export const bulkSendsFilterOf = (ctx: Koa.Context): BulkSendsFilter => {
  const { state, contract_id: contract } = ctx.query;
  return {
    state: BULK_SEND_STATES.find((s) => s === state),
    // As the API takes it: a positive integer of at most 15 digits.
    contract: typeof contract === 'string' && /^[1-9][0-9]{0,14}$/.test(contract) ? contract : '',
    dates: startedInputOf(ctx).dates,
  };
};

const hasDates = (f: BulkSendsFilter): boolean => f.dates.from !== '' || f.dates.to !== '';
const isFiltered = (f: BulkSendsFilter): boolean => f.state !== undefined || f.contract !== '' || hasDates(f);

/** The filter as query parameters, in the order the API and the page's links name them. */
export const bulkFilterParams = (f: BulkSendsFilter): Record<string, string> => ({
  ...(f.state ? { state: f.state } : {}),
  ...(f.contract ? { contract_id: f.contract } : {}),
  ...createdParams(f.dates),
});

/** The filter as the API takes it: as bulkFilterParams, each day the instant it starts (UTC). */
export const apiBulkFilterParams = (f: BulkSendsFilter): Record<string, string> => ({
  ...bulkFilterParams(f),
  ...createdInstants(f.dates),
});

/** The list's address with the filter `f` (and a page, when given). */
export const bulkSendsLink = (deps: WebDeps, f: BulkSendsFilter, pageNo?: number): string => {
  const query = new URLSearchParams({
    ...bulkFilterParams(f),
    ...(pageNo === undefined ? {} : { page: String(pageNo) }),
  }).toString();
  return `${deps.base}/bulk-sends${query === '' ? '' : `?${query}`}`;
};

/** The filter form: the state, the days started in, and the template kept from the query when given. */
export const bulkSendsFilterForm = (deps: WebDeps, f: BulkSendsFilter, started: CreatedInput): Html =>
  html`<form
    method="get"
    action="${deps.base}/bulk-sends"
    class="bar panel"
    role="search"
    aria-label="Filter bulk sends"
  >
    <label for="state">State</label>
    <select id="state" name="state">
      <option value="">Any state</option>
      <option value="running" ${f.state === 'running' ? html` selected` : ''}>Running</option>
      <option value="completed" ${f.state === 'completed' ? html` selected` : ''}>Completed</option>
    </select>
    ${createdFields(started, STARTED)}
    ${f.contract ? html`<input type="hidden" name="contract_id" value="${f.contract}" />` : ''}
    <button type="submit" class="secondary">Filter</button>
  </form>`;

/**
 * The status line of a filtered list: how many bulk sends it lists and what it is, then the
 * link that drops the template and the one that drops the dates, each keeping the rest of
 * the filter. None without a filter.
 */
export const bulkSendsStatus = (
  deps: WebDeps,
  f: BulkSendsFilter,
  total: number,
  templateName: string | undefined,
): Html | '' =>
  isFiltered(f)
    ? html`<p role="status">
        ${total}
        ${total === 1 ? 'bulk send' : 'bulk sends'}${f.state ? html` in state ${f.state}` : ''}${
          f.contract
            ? html` made with template
                <a href="${deps.base}/templates/${f.contract}">${templateName ?? f.contract}</a>`
            : ''
        }${hasDates(f) ? ` ${createdPhrase(f.dates, STARTED)}` : ''}.
        ${f.contract ? html`<a href="${bulkSendsLink(deps, { ...f, contract: '' })}">Show every template’s</a>` : ''}
        ${hasDates(f) ? html`<a href="${bulkSendsLink(deps, { ...f, dates: NO_DATES })}">Clear the dates</a>` : ''}
      </p>`
    : '';

/**
 * What an empty page says: none at all yet; filtered, in one sentence, what found nothing
 * (each filter given), with the link to the list unfiltered; or a page past the end, with
 * the way to the first.
 */
export const bulkSendsEmptyNotice = (
  deps: WebDeps,
  f: BulkSendsFilter,
  pageNo: number,
  total: number,
  templateName: string | undefined,
): Html => {
  if (total > 0)
    return html`<p class="notice">
      No bulk sends on page ${pageNo}. <a href="${bulkSendsLink(deps, f)}">Back to the first page</a>
    </p>`;
  if (!isFiltered(f))
    return html`<p class="notice">
      No bulk sends on this Site yet. Start one with
      <a href="${deps.base}/bulk-sends/new">Bulk send from a CSV file</a>.
    </p>`;
  const template = f.contract
    ? templateName === undefined
      ? html` were made with template ${f.contract}`
      : html` were made with template “${templateName}”`
    : '';
  const started = createdPhrase(f.dates, STARTED);
  const noun = [f.state, f.contract, started].filter(Boolean).length === 1 ? 'filter' : 'filters';
  // The dates qualify "bulk sends" ("No running bulk sends started before 1 Dec 2026 were made …").
  return html`<p class="notice">
    No ${f.state ? `${f.state} ` : ''}bulk sends${started ? ` ${started}` : ''}${template}.
    <a href="${bulkSendsLink(deps, NO_FILTER)}">Clear the ${noun}</a>
  </p>`;
};

/**
 * A published template's link to the bulk sends made with it. A draft has none: a bulk send
 * is made with published templates only, so its list would always be empty.
 */
export const bulkSendsWithTemplate = (deps: WebDeps, c: ContractSummary): Html | '' =>
  c.state === 'published'
    ? html`<p>
        <a href="${deps.base}/bulk-sends?contract_id=${c.id}">Bulk sends made with this template</a>
      </p>`
    : '';
