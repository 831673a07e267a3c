import * as E from 'fp-ts/lib/Either.js';
import { LIMITS } from '@esign/contracts';
import { clashProblem, typeClash, unusableForRequests, type TemplateSpec } from './contract-template.js';
import { isPastExpiry } from './expiry.js';
import { fieldError } from './paths.js';
import type { RequestField, SignatureRequest, Transition, TransitionError } from './request-model.js';

/**
 * A draft's contracts added and removed (ADR 3300), and put in a new order (ADR 3310), decided on the templates read before
 * the transition (published templates never change). `specs` must hold every template of
 * the Request as it is now: a contract added or removed by another call in between is
 * `TemplatesChanged`, and the caller reads them again.
 */

const openForContracts = (
  request: SignatureRequest,
  action: 'add_contract' | 'remove_contract' | 'reorder_contracts',
  now: string,
): TransitionError | undefined => {
  if (request.state !== 'draft') return { _tag: 'StateConflict', action, state: request.state };
  if (isPastExpiry(request, now)) return { _tag: 'RequestExpired', expiresAt: request.expiresAt! };
  return undefined;
};

/** The Request's templates in its order, or undefined when one was not read. */
const inOrder = (
  contracts: readonly { readonly id: number }[],
  specs: ReadonlyMap<number, TemplateSpec>,
): TemplateSpec[] | undefined => {
  const found = contracts.map((c) => specs.get(c.id));
  return found.every((s): s is TemplateSpec => s !== undefined) ? found : undefined;
};

/** Every field name of `templates`, each once, in their order: a Request's fields (as `checkFields` makes them). */
const fieldNames = (templates: readonly TemplateSpec[]): string[] => [
  ...new Set(templates.flatMap((t) => t.fields.map((f) => f.name))),
];

/**
 * draft → draft: one more contract, last. It must be a published, unarchived template of
 * the Request's Site, not on it already, and not a PDF while the Request has render_data
 * (which applies to HTML contracts only); at most `LIMITS.contracts`. The fields it brings
 * that the Request lacks are added after the others, with no signer and no value; a name
 * the Request has keeps its signer and value. Errors are at `contract_id`.
 */
export const addDraftContract = (
  request: SignatureRequest,
  added: TemplateSpec | undefined,
  contractId: number,
  specs: ReadonlyMap<number, TemplateSpec>,
  now: string,
): E.Either<TransitionError, Transition> => {
  const closed = openForContracts(request, 'add_contract', now);
  if (closed !== undefined) return E.left(closed);
  const refuse = (message: string) =>
    E.left<TransitionError, never>({ _tag: 'InvalidRequest', errors: [fieldError('contract_id', message)] });
  // Another Site's template reads exactly like one that does not exist.
  if (added === undefined || added.siteId !== request.siteId)
    return refuse(`no contract template ${contractId} on this site`);
  if (request.contracts.some((c) => c.id === added.id))
    return refuse(`contract template ${added.id} is already a contract of this Request`);
  const unusable = unusableForRequests(added);
  if (unusable !== undefined) return refuse(unusable);
  if (request.contracts.length >= LIMITS.contracts)
    return refuse(`cannot be added: a Request has at most ${LIMITS.contracts} contracts`);
  if (added.kind === 'pdf' && Object.keys(request.renderData).length > 0)
    return refuse(
      `contract template ${added.id} is a PDF, and render_data applies to HTML contracts only: remove the render_data first (PATCH /v1.1/requests/:id)`,
    );
  const current = inOrder(request.contracts, specs);
  if (current === undefined) return E.left({ _tag: 'TemplatesChanged' });
  const clash = typeClash([...current, added]);
  if (clash !== undefined) {
    const earlier = `contract template ${request.contracts[clash.otherIndex]!.id} on this Request`;
    return refuse(`contract template ${added.id} ${clashProblem(clash, earlier)}`);
  }
  const had = new Set(request.fields.map((f) => f.name));
  const addedFields = fieldNames([added]).filter((name) => !had.has(name));
  const fields: readonly RequestField[] =
    addedFields.length === 0
      ? request.fields
      : [...request.fields, ...addedFields.map((name) => ({ name, defaultValue: null, assignedTo: null }))];
  return E.right({
    request: {
      ...request,
      contracts: [...request.contracts, { id: added.id, name: added.name }],
      fields,
      updatedAt: now,
    },
    events: [{ type: 'request.contract_added', contract: { id: added.id, name: added.name }, addedFields }],
  });
};

/**
 * draft → draft: one contract fewer. The fields no other contract has go with it (with
 * their signers and values), and so do the render_data keys no other contract's tokens use;
 * the others stay as they are, in their order. The only contract is kept: a Request has at
 * least one.
 */
export const removeDraftContract = (
  request: SignatureRequest,
  contractId: number,
  specs: ReadonlyMap<number, TemplateSpec>,
  now: string,
): E.Either<TransitionError, Transition> => {
  const closed = openForContracts(request, 'remove_contract', now);
  if (closed !== undefined) return E.left(closed);
  const removed = request.contracts.find((c) => c.id === contractId);
  if (removed === undefined) return E.left({ _tag: 'UnknownContract', contractId });
  if (request.contracts.length === 1) return E.left({ _tag: 'LastContract' });
  const remaining = request.contracts.filter((c) => c !== removed);
  const templates = inOrder(remaining, specs);
  if (templates === undefined) return E.left({ _tag: 'TemplatesChanged' });
  const kept = new Set(fieldNames(templates));
  const fields = request.fields.filter((f) => kept.has(f.name));
  const tokens = new Set(templates.flatMap((t) => t.tokens));
  const gone = Object.keys(request.renderData).filter((key) => !tokens.has(key));
  return E.right({
    request: {
      ...request,
      contracts: remaining,
      // The very array or object when nothing went: the write leaves them alone.
      fields: fields.length === request.fields.length ? request.fields : fields,
      renderData:
        gone.length === 0
          ? request.renderData
          : Object.fromEntries(Object.entries(request.renderData).filter(([key]) => tokens.has(key))),
      updatedAt: now,
    },
    events: [
      {
        type: 'request.contract_removed',
        contract: removed,
        removedFields: request.fields.filter((f) => !kept.has(f.name)).map((f) => f.name),
        removedRenderData: gone,
      },
    ],
  });
};

/**
 * Where `contractIds` fails to name each of the Request's contracts exactly once: at the
 * element for one it lacks or one named again, at the list for those left out.
 */
const orderErrors = (request: SignatureRequest, contractIds: readonly number[]) => {
  const on = new Set(request.contracts.map((c) => c.id));
  const seen = new Set<number>();
  const errors = contractIds.flatMap((id, i) => {
    const again = seen.has(id);
    seen.add(id);
    if (!on.has(id))
      return [fieldError(`contract_ids[${i}]`, `contract template ${id} is not a contract of this Request`)];
    return again ? [fieldError(`contract_ids[${i}]`, `contract template ${id} is named more than once`)] : [];
  });
  const left = request.contracts.filter((c) => !seen.has(c.id)).map((c) => c.id);
  return left.length === 0
    ? errors
    : [
        ...errors,
        fieldError(
          'contract_ids',
          `must name every contract of this Request once; left out: ${left.join(', ')}`,
        ),
      ];
};

/**
 * draft → draft: its contracts in the order of `contractIds`, which names each exactly once
 * (ADR 3310). The fields follow: each name at the first contract that has it, as at create;
 * their signers and values, and render_data, stay as they are. The order it has changes
 * nothing and tells nobody.
 */
export const reorderDraftContracts = (
  request: SignatureRequest,
  contractIds: readonly number[],
  specs: ReadonlyMap<number, TemplateSpec>,
  now: string,
): E.Either<TransitionError, Transition> => {
  const closed = openForContracts(request, 'reorder_contracts', now);
  if (closed !== undefined) return E.left(closed);
  const errors = orderErrors(request, contractIds);
  if (errors.length > 0) return E.left({ _tag: 'InvalidRequest', errors });
  if (contractIds.every((id, i) => request.contracts[i]?.id === id)) return E.right({ request, events: [] });
  const byId = new Map(request.contracts.map((c) => [c.id, c]));
  const contracts = contractIds.map((id) => byId.get(id)!);
  const templates = inOrder(contracts, specs);
  if (templates === undefined) return E.left({ _tag: 'TemplatesChanged' });
  const place = new Map(fieldNames(templates).map((name, i) => [name, i]));
  // Every field is some contract's; one that were not would keep its place after them.
  const at = (name: string) => place.get(name) ?? place.size;
  const fields = [...request.fields].sort((a, b) => at(a.name) - at(b.name));
  return E.right({
    request: {
      ...request,
      contracts,
      // The very array when the fields' order stands: the write leaves them alone.
      fields: fields.every((f, i) => f === request.fields[i]) ? request.fields : fields,
      updatedAt: now,
    },
    events: [{ type: 'request.contracts_reordered' }],
  });
};
