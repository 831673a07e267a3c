import { kindOf, type FieldKind, type TypedField } from './document.js';
import type { Answered } from './answers.js';
import type { RequestSigner } from './signature-request.js';
import { executedValue, type EnteredAct, type FieldValue } from './signing.js';

/** A field of a Request with the value the executed document shows for it (ADR 3730). */
export interface FieldEntry {
  readonly name: string;
  readonly type: FieldKind;
  readonly assignedTo: string | null;
  readonly value: FieldValue | null;
  /** When its signer signed; null until they have. */
  readonly filledAt: string | null;
}

/**
 * Every field's value as the executed document shows it (`executedValue`): what its signer
 * entered once they signed, else what was pre-filled; a signature's is the name its signer
 * typed, which the document shows as their signature.
 */
export const fieldEntries = (fields: readonly TypedField[], acts: readonly EnteredAct[]): FieldEntry[] =>
  fields.map((field) => {
    const act = acts.find((a) => a.kind === 'signed' && a.signerId === field.assignedTo);
    const type = kindOf(field);
    return {
      name: field.name,
      type,
      assignedTo: field.assignedTo,
      value: type === 'signature' ? (act?.typedName ?? null) : executedValue(field, acts),
      filledAt: act?.at ?? null,
    };
  });

/** The letters and digits a concealed value keeps, at its end (ADR 3740). */
const KEPT = 4;

/**
 * A value as the executed document shows a concealed field's (ADR 3740): every letter and
 * digit as `*` but the last four, the spaces and signs between them kept
 * (`***-**-6789`, `**** **** **** **** **30 00`); all of them when it has fewer than eight,
 * where four would be half of it.
 */
export const concealedText = (value: string): string => {
  const characters = [...value];
  const alphanumeric = characters.filter((c) => /[\p{L}\p{N}]/u.test(c)).length;
  let left = alphanumeric < 2 * KEPT ? alphanumeric : alphanumeric - KEPT;
  return characters.map((c) => (/[\p{L}\p{N}]/u.test(c) && left-- > 0 ? '*' : c)).join('');
};

/** Whether the executed document conceals a field's value: any contract naming it says so (ADR 3740). */
export const isConcealed = (field: TypedField): boolean =>
  field.definitions.some((d) => d.type === 'text' && d.conceal === true);

/**
 * The fields of the Request other signers than `signer` have signed with, and their values,
 * which a condition reads (ADR 3840). Not a concealed one (ADR 3740): whether a field is
 * asked for would tell its value to the next signer, which the executed document does not.
 */
export const answeredBy = (
  fields: readonly TypedField[],
  acts: readonly EnteredAct[],
  signer: RequestSigner,
): Answered[] =>
  fields.flatMap((field) => {
    if (field.assignedTo === signer.signerId || isConcealed(field)) return [];
    const act = acts.find((a) => a.kind === 'signed' && a.signerId === field.assignedTo);
    const value = act?.values[field.name];
    return value === undefined ? [] : [{ field, value }];
  });
