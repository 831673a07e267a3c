import * as E from 'fp-ts/lib/Either.js';
import { LIMITS } from '@esign/contracts';
import { unusableForRequests, type TemplateSpec } from './contract-template.js';
import { isPastExpiry } from './expiry.js';
import { fieldError } from './paths.js';
import type { RequestField, SignatureRequest, Transition, TransitionError } from './request-model.js';

/**
 * A draft's contracts added and removed (ADR 3300), decided on the templates read before
 * the transition (published templates never change). `specs` must hold every template of
 * the Request as it is now: a contract added or removed by another call in between is
 * `TemplatesChanged`, and the caller reads them again.
 */

const openForContracts = (
  request: SignatureRequest,
  action: 'add_contract' | 'remove_contract',
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
  if (inOrder(request.contracts, specs) === undefined) return E.left({ _tag: 'TemplatesChanged' });
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
