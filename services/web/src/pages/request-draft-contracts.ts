import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { ContractSummary, type RequestView } from '@esign/contracts';
import type { ApiProblem, ApiResult } from '../api-client.js';
import type { Visitor } from '../context.js';
import { html, type Html } from '../html.js';
import { problemSummary } from '../layout.js';
import { moveRefusal, movedNotice, type Direction } from './request-contract-order.js';
import { publishedTemplates } from './published-templates.js';

/**
 * A draft's contracts added and removed on its page (ADR 3300): **Add a contract** sends
 * `POST /v1.1/requests/:id/contracts` `{ contract_id }`, and each contract's **Remove**
 * `DELETE /v1.1/requests/:id/contracts/:contract_id` (the routes:
 * `request-draft-contract-routes.ts`; the section: `request-contracts-section.ts`). Each
 * form carries its own Idempotency-Key, so a second click adds or removes nothing twice.
 * Their **Move up** and **Move down** (ADR 3310): `request-contract-order.ts`.
 */

/** A refused Add a contract (the key and the template chosen, as posted), or a refused Remove or move. */
export type ContractForm =
  | { readonly kind: 'add'; readonly idempotencyKey: string; readonly contractId: string }
  | { readonly kind: 'remove'; readonly contractId: number }
  | { readonly kind: 'move'; readonly contractId: number; readonly direction: Direction };

/** Whether a template can be added to a draft: published and not archived. */
export const addable = (c: ContractSummary): boolean => c.state === 'published' && c.archived_at === null;

/**
 * The Site's published, unarchived templates (every page, `publishedTemplates`), on a
 * draft only; none read otherwise. A contract of the draft not among them (its template
 * archived since it was added) is read on its own, all such at once, for its name; one
 * that cannot be read is left out (named by its id).
 */
export const draftTemplatesOf = async (
  visitor: Visitor,
  r: RequestView,
): Promise<ApiResult<readonly ContractSummary[]> | undefined> => {
  if (r.state !== 'draft') return undefined;
  const list = await publishedTemplates(visitor, r.site_id);
  if (E.isLeft(list)) return list;
  const listed = list.right.filter(addable);
  const missing = [...new Set(r.contracts)].filter((id) => !listed.some((t) => t.id === id));
  const read = await Promise.all(
    missing.map((id) =>
      visitor.api({ method: 'GET', path: `/v1.1/contracts/${String(id)}`, codec: ContractSummary }),
    ),
  );
  return E.right([...listed, ...read.flatMap((found) => (E.isRight(found) ? [found.right] : []))]);
};

/** The templates read, or none when they could not be (or the Request is not a draft). */
export const templatesIn = (
  read: ApiResult<readonly ContractSummary[]> | undefined,
): readonly ContractSummary[] => (read !== undefined && E.isRight(read) ? read.right : []);

/** A contract's name, from the templates read; `template <id>` when it is not among them (archived since). */
export const contractName = (templates: readonly ContractSummary[], id: number): string =>
  templates.find((t) => t.id === id)?.name ?? `template ${String(id)}`;

/** A template id as posted: a whole number, or undefined. */
export const contractIdOf = (text: string | undefined): number | undefined =>
  /^[1-9]\d{0,9}$/.test(text ?? '') ? Number(text) : undefined;

/** Where the redirect after a change of contracts says what it did. */
export const contractDone = (done: 'contract-added' | 'contract-removed', contractId: number): string =>
  `?done=${done}&contract_id=${String(contractId)}`;

/** The Add a contract select's id, which the API's `contract_id` errors are shown beside. */
export const ADD_CONTRACT_ID = 'add-contract-id';

/** The refusal of Add a contract beside its select, when the page shows one. */
export const addContractError = (typed: ContractForm | undefined, refused: ApiProblem | undefined) =>
  typed?.kind !== 'add'
    ? undefined
    : (refused?.errors ?? [])
        .filter((e) => e.path === 'contract_id')
        .map((e) => e.message)
        .join(' ') || undefined;

const withOutcome = (refused: ApiProblem, outcome: string): ApiProblem => {
  const said = refused.detail ?? refused.title;
  return { ...refused, detail: `${said}${/[.!?]$/.test(said) ? '' : '.'} ${outcome}` };
};

/**
 * The refusal of Add a contract or of a Remove, first on the page (errors at `contract_id`
 * link to the select); undefined when the page shows another refusal.
 */
export const contractsSummary = (
  refused: ApiProblem | undefined,
  typed: ContractForm | undefined,
  templates: readonly ContractSummary[],
): Html | undefined => {
  if (refused === undefined || typed === undefined) return undefined;
  if (typed.kind === 'remove')
    return problemSummary(
      withOutcome(refused, `${contractName(templates, typed.contractId)} was not removed.`),
    );
  if (typed.kind === 'move')
    return problemSummary(
      moveRefusal(refused, `${contractName(templates, typed.contractId)} was not moved.`),
    );
  return problemSummary(
    withOutcome(refused, 'No contract was added.'),
    { contract_id: ADD_CONTRACT_ID },
    { contract_id: 'Contract template:' },
  );
};

const fieldsLink = html`<a href="#fields-title">Fields</a>`;

/**
 * What Add a contract or Remove did, from the redirect's `?done=` and `contract_id`, told
 * only when the draft shown agrees (a contract added is listed, one removed is not): a link
 * of anyone's making cannot claim a change that was not made. After an add, the template's
 * fields that have no signer; after a removal, what the API took with it (History lists it).
 */
export const contractsNotice = (
  ctx: Koa.Context,
  r: RequestView,
  templates: readonly ContractSummary[],
  problem: unknown,
): Html | '' => {
  const { done } = ctx.query;
  const id = contractIdOf(typeof ctx.query.contract_id === 'string' ? ctx.query.contract_id : undefined);
  if (problem || r.state !== 'draft' || id === undefined) return '';
  const listed = r.contracts.includes(id);
  const name = contractName(templates, id);
  const moved = movedNotice(ctx, r, (c) => contractName(templates, c), id);
  if (moved !== '') return moved;
  if (done === 'contract-added' && listed) {
    const names = new Set(templates.find((t) => t.id === id)?.fields.map((f) => f.name) ?? []);
    const unassigned = r.fields.filter((f) => f.assigned_to === null && names.has(f.name)).map((f) => f.name);
    const one = unassigned.length === 1;
    return html`<p class="success" role="status">
      ${name} was
      added${
        unassigned.length === 0
          ? ' to this draft.'
          : html`; its ${one ? 'field' : 'fields'}
              <strong>${unassigned.join(', ')}</strong> ${one ? 'has' : 'have'} no signer yet: choose
              ${one ? 'it' : 'them'} under ${fieldsLink} before sending the Request.`
      }
    </p>`;
  }
  if (done !== 'contract-removed' || listed) return '';
  return html`<p class="success" role="status">
    ${name} was removed from this draft, with the fields and render data no other contract of it uses (History
    names them).
  </p>`;
};
