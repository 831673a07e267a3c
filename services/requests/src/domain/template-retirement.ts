import type { ContractTemplate } from './contract-template.js';

/*
 * What becomes of a template once it is published and no longer wanted: archived and
 * brought back (ADR 3250), or deleted (ADRs 3240, 3430).
 */

/**
 * A published template archived, or brought back (ADR 3250): an archived one is left out of
 * new Requests, and nothing else about it changes. Either is idempotent (`changed: false`
 * when it already is so). A draft is never archived: it is deleted instead (ADR 3240).
 */
export const setArchived = <T extends ContractTemplate>(
  template: T,
  archived: boolean,
  now: string,
): { readonly _tag: 'Draft' } | { readonly _tag: 'Set'; readonly template: T; readonly changed: boolean } => {
  if (template.state === 'draft') return { _tag: 'Draft' };
  if ((template.archivedAt !== null) === archived) return { _tag: 'Set', template, changed: false };
  return {
    _tag: 'Set',
    template: { ...template, archivedAt: archived ? now : null, updatedAt: now },
    changed: true,
  };
};

/**
 * What deleting `template` does (ADRs 3240, 3430). A draft, which no Request can name, is
 * forgotten (`Remove`). A published one is marked deleted (`Mark`): it leaves every list and
 * read, and no new Request may use it, while the Requests made with it keep it (their
 * signers still read it, and their executed documents are made from it).
 */
export const deleteTemplate = <T extends ContractTemplate>(
  template: T,
  now: string,
): { readonly _tag: 'Remove' } | { readonly _tag: 'Mark'; readonly template: T } =>
  template.state === 'draft'
    ? { _tag: 'Remove' }
    : { _tag: 'Mark', template: { ...template, deletedAt: now, updatedAt: now } };
