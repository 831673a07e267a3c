import { kindOf, type TypedField } from './document.js';
import type { ShownIf } from '@esign/contracts';
import { conditionsOf, isAsked, type Answer } from './field-conditions.js';
import type { RequestSigner } from './signature-request.js';

// What a condition reads (ADRs 3710, 3800, 3810): the answers the signer posts for their own
// fields and, since ADR 3840, those another signer recorded when they signed. A field of
// someone who has not signed yet is still asked for as though its condition held.

/** A field another signer has answered, with the value they signed with (ADR 3840). */
export interface Answered {
  readonly field: TypedField;
  readonly value: string | boolean;
}

/** What a form posts for a ticked box. */
const CHECKED = new Set(['on', 'true', 'yes', '1']);
export const isTicked = (raw: string): boolean => CHECKED.has(raw);

/**
 * The answer of each of `fields` (by name), `raw` as `rawOf` reads it: a box set when ticked,
 * any other field when not blank (ADR 3800), asked for when its own conditions hold (ADR
 * 3810). A template's conditions never lead back to their field, but two contracts' together
 * may: a condition met again on the way is read as one whose field is not known, which never
 * hides. A name not among `fields` is `otherwise`'s.
 */
export const answerOf = (
  fields: readonly TypedField[],
  rawOf: (field: TypedField) => string | undefined,
  otherwise: (name: string) => Answer | undefined = () => undefined,
) => {
  const reading = new Set<string>();
  const answer = (name: string): Answer | undefined => {
    const field = fields.find((f) => f.name === name);
    if (field === undefined) return otherwise(name);
    if (reading.has(name)) return undefined;
    reading.add(name);
    const asked = isAsked(conditionsOf(field.definitions), answer);
    reading.delete(name);
    const raw = rawOf(field) ?? '';
    return { asked, raw, set: kindOf(field) === 'checkbox' ? isTicked(raw) : raw.trim() !== '' };
  };
  return answer;
};

/** The answers other signers recorded, as a condition reads them: a box ticked as `on`. */
export const recordedAnswer = (answered: readonly Answered[]) => {
  const values = new Map(answered.map((a) => [a.field.name, a.value]));
  const raw = (value: string | boolean | undefined): string | undefined =>
    typeof value === 'boolean' ? (value ? 'on' : '') : value;
  return answerOf(
    answered.map((a) => a.field),
    (field) => raw(values.get(field.name)),
  );
};

/** Whether a field's conditions name a field assigned to a signer other than `signer` (ADR 3840). */
const namesAnothers = (fields: readonly TypedField[], signer: RequestSigner) => (field: TypedField) =>
  conditionsOf(field.definitions).some((c) => {
    const named = fields.find((f) => f.name === c.field);
    return named !== undefined && named.assignedTo !== signer.signerId;
  });

/** Whether what other signers recorded decides anything for `mine`: else it is not read. */
export const readsOthers = (
  fields: readonly TypedField[],
  mine: readonly TypedField[],
  signer: RequestSigner,
): boolean => mine.some(namesAnothers(fields, signer));

/** How the signer's page treats one of their fields (ADR 3840). */
export type OnPage =
  /** Asked for whatever the signer answers: no condition, or one the page cannot or need not follow. */
  | { readonly _tag: 'Always' }
  /** Not asked for whatever the signer answers: not shown. */
  | { readonly _tag: 'Never' }
  /** Asked for while one of `conditions` holds, each naming another of the signer's fields. */
  | { readonly _tag: 'Follow'; readonly conditions: readonly (ShownIf & { readonly trigger: TypedField })[] };

/**
 * What the page does with each of `mine`: a condition on a field of someone who has not
 * signed holds for all the page knows (ADR 3710); one on a field another signer has answered
 * holds or not, once and for all (ADR 3840), as does one on a field of the signer's that is
 * never asked for. The rest the page follows as the signer answers.
 */
export const onPage = (mine: readonly TypedField[], answered: readonly Answered[]) => {
  const recorded = recordedAnswer(answered);
  const reading = new Set<string>();
  const treat = (field: TypedField): OnPage => {
    const conditions = conditionsOf(field.definitions);
    if (conditions.length === 0 || reading.has(field.name)) return { _tag: 'Always' };
    reading.add(field.name);
    const followed: (ShownIf & { readonly trigger: TypedField })[] = [];
    let always = false;
    for (const c of conditions) {
      const trigger = mine.find((f) => f.name === c.field);
      if (trigger !== undefined) {
        if (treat(trigger)._tag !== 'Never') followed.push({ ...c, trigger });
      } else if (isAsked([c], recorded)) always = true;
    }
    reading.delete(field.name);
    if (always) return { _tag: 'Always' };
    return followed.length === 0 ? { _tag: 'Never' } : { _tag: 'Follow', conditions: followed };
  };
  return treat;
};
