import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type { ContractSummary, RequestView } from '@esign/contracts';
import type { ApiProblem, ApiResult } from '../api-client.js';
import { html, type Html } from '../html.js';
import { csrfField } from '../layout.js';
import { postButton } from '../table.js';
import { keyShownAgain } from './common.js';
import { moveButtons } from './request-contract-order.js';
import {
  ADD_CONTRACT_ID,
  addable,
  addContractError,
  contractName,
  templatesIn,
  type ContractForm,
} from './request-draft-contracts.js';

/**
 * A draft's **Contracts** on its page (ADR 3300): each with a **Remove** while there are two
 * or more (a Request has at least one), **Move up** and **Move down** to put them in the
 * order signers read them in (ADR 3310), and **Add a contract** choosing among the Site's
 * published templates not on it yet. Nothing on a Request that is not a draft.
 */

/** The select of the templates that can be added, with the API's refusal beside it. */
const addForm = (
  action: string,
  csrf: string,
  left: readonly ContractSummary[],
  typed: ContractForm | undefined,
  refused: ApiProblem | undefined,
): Html => {
  const error = addContractError(typed, refused);
  const chosen = typed?.kind === 'add' ? typed.contractId : '';
  const key = keyShownAgain(typed?.kind === 'add' ? typed.idempotencyKey : undefined, refused);
  const described = ['add-contract-hint', error === undefined ? '' : `${ADD_CONTRACT_ID}-error`].join(' ');
  return html`<form method="post" action="${action}" novalidate>
    ${csrfField(csrf)}
    <input type="hidden" name="idempotency_key" value="${key}" />
    <div class="field">
      <label for="${ADD_CONTRACT_ID}">Contract template</label>
      <p class="hint" id="add-contract-hint">
        It is added last. Its fields this draft lacks come after the others with no signer: choose theirs
        under Fields before sending.
      </p>
      ${error === undefined ? '' : html`<p class="error" id="${ADD_CONTRACT_ID}-error">${error}</p>`}
      <select
        id="${ADD_CONTRACT_ID}"
        name="contract_id"
        aria-describedby="${described.trim()}"
        ${error === undefined ? '' : html` aria-invalid="true"`}
      >
        ${left.map(
          (t) =>
            html`<option value="${String(t.id)}" ${chosen === String(t.id) ? html` selected` : ''}>
              ${t.name} (${t.type === 'pdf' ? 'PDF' : 'HTML'}, template ${String(t.id)})
            </option>`,
        )}
      </select>
    </div>
    <button type="submit">Add contract</button>
  </form>`;
};

export const contractsSection = (input: {
  readonly base: string;
  readonly csrf: string;
  readonly request: RequestView;
  readonly templates: ApiResult<readonly ContractSummary[]> | undefined;
  readonly typed?: ContractForm | undefined;
  readonly problem?: ApiProblem | undefined;
}): Html | '' => {
  const { base, csrf, request: r, templates: read, typed, problem: refused } = input;
  if (r.state !== 'draft') return '';
  const templates = templatesIn(read);
  // A refused choice stays offered (it may have been added meanwhile), its refusal beside it.
  const kept = typed?.kind === 'add' && refused !== undefined ? typed.contractId : '';
  const left = templates.filter((t) => addable(t) && (!r.contracts.includes(t.id) || String(t.id) === kept));
  const removable = r.contracts.length > 1;
  return html`<section aria-labelledby="draft-contracts-title">
    <h2 id="draft-contracts-title">Contracts</h2>
    <p class="hint">
      ${
        removable
          ? html`<strong>Remove</strong> takes a contract off this draft, with its fields and render data no
              other contract uses.`
          : 'A Request has at least one contract: to replace it, add the new one first, then remove it.'
      }
    </p>
    ${
      removable
        ? html`<p class="hint">
            Signers read the contracts in this order, and the signed document holds them in it:
            <strong>Move up</strong> and <strong>Move down</strong> change it.
          </p>`
        : ''
    }
    <ul class="contracts">
      ${r.contracts.map((id) => {
        const name = contractName(templates, id);
        return html`<li>
          <a href="${base}/templates/${String(id)}">${name}</a>
          ${moveButtons(base, csrf, r, id, name)}
          ${
            removable
              ? postButton({
                  action: `${base}/requests/${r.id}/remove-contract`,
                  csrf: csrfField(csrf),
                  label: 'Remove',
                  ariaLabel: `Remove ${name} from this draft`,
                  hidden: { contract_id: String(id), idempotency_key: randomUUID() },
                })
              : ''
          }
        </li>`;
      })}
    </ul>
    <section class="panel" aria-labelledby="add-contract-title">
      <h3 id="add-contract-title">Add a contract</h3>
      ${
        read !== undefined && E.isLeft(read)
          ? html`<p class="errors">
              The Site’s templates cannot be read: ${read.left.detail ?? read.left.title}
            </p>`
          : left.length === 0
            ? html`<p class="notice">
                Every published template of this Site is on this draft already: there is none left to add.
              </p>`
            : addForm(`${base}/requests/${r.id}/add-contract`, csrf, left, typed, refused)
      }
    </section>
  </section>`;
};
