import type { ContractSummary } from '@esign/contracts';
import { html, type Html } from '../html.js';

/**
 * The Site's published templates as boxes to tick (`contract_<id>`), each with its id,
 * type and tokens, and the API's refusal of `contracts` above them: the New Request and
 * bulk-send forms choose templates alike.
 */
export const contractBoxes = (
  contracts: readonly ContractSummary[],
  chosen: readonly number[],
  error?: string,
): Html =>
  html`<fieldset class="checks" id="contracts" ${error ? html` aria-describedby="contracts-error"` : ''}>
    <legend>Contract templates</legend>
    ${error ? html`<p class="error" id="contracts-error">${error}</p>` : ''}
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
