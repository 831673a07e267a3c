import type { ContractSummary } from '@esign/contracts';
import { html, type Html } from '../html.js';

/**
 * From this many templates on, the boxes get a "Find a template" filter: a Site may have
 * up to 2,000 published templates, and finding one by scrolling is no way to work.
 */
export const CONTRACT_FILTER_FROM = 8;

/**
 * The filter over the boxes, rendered `hidden` and shown by app.js (progressive
 * enhancement: without script nobody sees a dead field). Its input has no `name`, so the
 * form never posts it; its status is the polite live region the script keeps up to date.
 */
const contractFilter = (count: number): Html =>
  html`<div class="field contracts-filter" id="contracts-filter-field" hidden>
    <label for="contracts-filter">Find a template</label>
    <input
      id="contracts-filter"
      type="search"
      autocomplete="off"
      spellcheck="false"
      aria-describedby="contracts-filter-hint"
      aria-controls="contracts"
      data-filter-boxes="contracts"
    />
    <p class="hint" id="contracts-filter-hint">
      Type part of a name or id; ticked templates always stay shown.
    </p>
    <p class="hint" id="contracts-filter-status" role="status" aria-live="polite">
      Showing ${count} of ${count} templates.
    </p>
  </div>`;

/**
 * The Site's published templates as boxes to tick (`contract_<id>`), each with its id,
 * type and tokens, and the API's refusal of `contracts` above them: the New Request and
 * bulk-send forms choose templates alike. Many templates get a filter before the boxes.
 */
export const contractBoxes = (
  contracts: readonly ContractSummary[],
  chosen: readonly number[],
  error?: string,
): Html =>
  html`<fieldset class="checks" id="contracts" ${error ? html` aria-describedby="contracts-error"` : ''}>
    <legend>Contract templates</legend>
    ${error ? html`<p class="error" id="contracts-error">${error}</p>` : ''}
    ${contracts.length >= CONTRACT_FILTER_FROM ? contractFilter(contracts.length) : ''}
    ${contracts.map(
      (c) =>
        html`<label
          ><input
            type="checkbox"
            name="contract_${c.id}"
            value="on"
            ${chosen.includes(c.id) ? html` checked` : ''}
          />
          ${c.name}
          <span class="hint"
            >(${c.id},
            ${c.type.toUpperCase()}${c.tokens.length > 0 ? `; tokens: ${c.tokens.join(', ')}` : ''})</span
          ></label
        >`,
    )}
  </fieldset>`;
