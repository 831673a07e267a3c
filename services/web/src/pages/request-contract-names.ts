import * as E from 'fp-ts/lib/Either.js';
import { ContractSummary, type RequestView } from '@esign/contracts';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';

/**
 * The Contracts fact of a Request's page: each template by name, linked to its page. Those
 * not among `known` (a draft's page has read its Site's templates already) are read at once,
 * one call each. A template deleted since (ADR 3430) answers 404: it is named by its id,
 * unlinked, and said to be deleted, since its page would be a 404 too; one that cannot be
 * read for another reason keeps its link.
 */
export const contractsFact = async (
  deps: WebDeps,
  visitor: Visitor,
  r: RequestView,
  known: readonly ContractSummary[],
): Promise<Html> => {
  const read = await Promise.all(
    r.contracts.map((id) => {
      const template = known.find((t) => t.id === id);
      return template !== undefined
        ? Promise.resolve(E.right(template))
        : visitor.api({ method: 'GET', path: `/v1.1/contracts/${String(id)}`, codec: ContractSummary });
    }),
  );
  const named = r.contracts.map((id, i) => {
    const found = read[i]!;
    if (E.isRight(found)) return html`<a href="${deps.base}/templates/${String(id)}">${found.right.name}</a>`;
    return found.left.status === 404
      ? html`template ${String(id)} <span class="hint">(deleted)</span>`
      : html`<a href="${deps.base}/templates/${String(id)}">template ${String(id)}</a>`;
  });
  return html`<dt>Contracts</dt>
    <dd>${named.map((n, i) => html`${i > 0 ? ', ' : ''}${n}`)}</dd>`;
};
