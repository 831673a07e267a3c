import * as t from 'io-ts';
import { envelope } from './event-envelope.js';
import { TemplateKind, TemplateState } from './templates.js';

/**
 * The events of a Site's contract templates (ADR 3350), webhooks only: what a client that
 * keeps its own list of a Site's templates needs to keep it true. Each names the template as
 * it is after the change (as it was, for a deletion); its fields and text are read with
 * `GET /v1.1/contracts/:id`.
 */
const TemplateEventData = t.type({
  contract_id: t.number,
  name: t.string,
  type: TemplateKind,
  state: TemplateState,
  archived_at: t.union([t.string, t.null]),
});

/** A template was made: created, or copied into a new draft (ADRs 3260, 3320). */
export const ContractCreated = envelope('contract.created', TemplateEventData);
/** A draft template's content was replaced (ADR 3240). */
export const ContractUpdated = envelope('contract.updated', TemplateEventData);
/** A draft template was published: new Requests may use it. */
export const ContractPublished = envelope('contract.published', TemplateEventData);
/** A published template was archived (ADR 3250): new Requests may not use it. */
export const ContractArchived = envelope('contract.archived', TemplateEventData);
/** An archived template was let back in (ADR 3250). */
export const ContractUnarchived = envelope('contract.unarchived', TemplateEventData);
/** A template was deleted, a draft (ADR 3240) or a published one (ADR 3430); it was as the data says. */
export const ContractDeleted = envelope('contract.deleted', TemplateEventData);

/** The types of the template events, in the order a template lives them. */
export const TEMPLATE_EVENT_TYPES = [
  'contract.created',
  'contract.updated',
  'contract.published',
  'contract.archived',
  'contract.unarchived',
  'contract.deleted',
] as const;
export type TemplateEventType = (typeof TEMPLATE_EVENT_TYPES)[number];
