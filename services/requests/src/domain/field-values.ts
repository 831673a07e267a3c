import { kindOf, type FieldKind, type TypedField } from './document.js';
import { executedValue, type FieldValue, type SignerAct } from './signing.js';

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
export const fieldEntries = (fields: readonly TypedField[], acts: readonly SignerAct[]): FieldEntry[] =>
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
