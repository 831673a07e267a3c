import type Koa from 'koa';
import type { ContractSummary } from '@esign/contracts';
import type { WebDeps } from '../context.js';
import { html, type Html } from '../html.js';

export const BULK_SEND_STATES = ['running', 'completed'] as const;

/**
 * The bulk sends list's filter: a state, and the contract template a template's page names
 * (a bulk send that named it among its templates). As on the Requests page, a value the list
 * does not know (an unknown state, a `contract_id` that is not a positive integer) is left
 * out, not refused.
 */
export interface BulkSendsFilter {
  readonly state: (typeof BULK_SEND_STATES)[number] | undefined;
  readonly contract: string;
}

export const NO_FILTER: BulkSendsFilter = { state: undefined, contract: '' };

export const bulkSendsFilterOf = (ctx: Koa.Context): BulkSendsFilter => {
  const { state, contract_id: contract } = ctx.query;
  return {
    state: BULK_SEND_STATES.find((s) => s === state),
    // As the API takes it: a positive integer of at most 15 digits.
    contract: typeof contract === 'string' && /^[1-9][0-9]{0,14}$/.test(contract) ? contract : '',
  };
};

const isFiltered = (f: BulkSendsFilter): boolean => f.state !== undefined || f.contract !== '';

/** The filter as query parameters, in the order the API and the page's links name them. */
export const bulkFilterParams = (f: BulkSendsFilter): Record<string, string> => ({
  ...(f.state ? { state: f.state } : {}),
  ...(f.contract ? { contract_id: f.contract } : {}),
});

/** The list's address with the filter `f` (and a page, when given). */
export const bulkSendsLink = (deps: WebDeps, f: BulkSendsFilter, pageNo?: number): string => {
  const query = new URLSearchParams({
    ...bulkFilterParams(f),
    ...(pageNo === undefined ? {} : { page: String(pageNo) }),
  }).toString();
  return `${deps.base}/bulk-sends${query === '' ? '' : `?${query}`}`;
};

/** The filter form: the state, and the template kept from the query when it is given. */
export const bulkSendsFilterForm = (deps: WebDeps, f: BulkSendsFilter): Html =>
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
    ${f.contract ? html`<input type="hidden" name="contract_id" value="${f.contract}" />` : ''}
    <button type="submit" class="secondary">Filter</button>
  </form>`;

/**
 * The status line of a filtered list: how many bulk sends it lists and what it is, then the
 * link that drops the template, keeping the state. None without a filter.
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
        }.
        ${f.contract ? html`<a href="${bulkSendsLink(deps, { ...f, contract: '' })}">Show every template’s</a>` : ''}
      </p>`
    : '';

/**
 * What an empty page says: none at all yet; filtered, in one sentence, what found nothing,
 * with the link to the list unfiltered; or a page past the end, with the way to the first.
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
  const noun = f.state && f.contract ? 'filters' : 'filter';
  return html`<p class="notice">
    No ${f.state ? `${f.state} ` : ''}bulk sends${template}.
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
