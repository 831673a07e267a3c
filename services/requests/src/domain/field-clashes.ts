import { isDateKind, type TemplateField } from './template-fields.js';
import type { TextValidation } from '@esign/contracts';

// Which fields one Request's contracts may share by name (ADR 3590): a name is one field,
// so its contracts must agree on what it is, what kind of value it asks for (ADR 3600) and
// the format it is written in (ADR 3870).

/** Two contracts of one Request that declare one field name as things one field cannot be. */
export interface TypeClash {
  readonly name: string;
  /** The later contract's index, and its type for the name. */
  readonly index: number;
  readonly type: TemplateField['type'];
  /** An earlier contract's index, and its type. */
  readonly otherIndex: number;
  readonly otherType: TemplateField['type'];
  /** Both are choices, with no option in common: no answer fits both. */
  readonly noCommonOption?: true;
  /** Both are text fields that ask for values of different kinds (ADR 3600). */
  readonly validations?: readonly [TextValidation, TextValidation];
  /** Both are text fields whose values are written in different formats (ADR 3870). */
  readonly formats?: readonly [string, string];
}

/**
 * The first name two of `templates` declare as things one field cannot be: a name is one
 * field of the Request, filled once, so its contracts must agree on what it is (ADR 3590).
 * Two choices must share an option, since a signer's answer must be one of each. A PDF's
 * text field may share the name of a date field, which it then shows (ADRs 3570, 3580).
 */
export const typeClash = (
  templates: readonly { readonly fields: readonly TemplateField[] }[],
): TypeClash | undefined => {
  const first = new Map<string, { index: number; field: TemplateField; options?: readonly string[] }>();
  for (const [index, template] of templates.entries())
    for (const field of template.fields) {
      const seen = first.get(field.name);
      const options = field.type === 'choice' ? field.options : undefined;
      if (seen === undefined) {
        first.set(field.name, { index, field, ...(options && { options }) });
        continue;
      }
      const clash = {
        name: field.name,
        index,
        type: field.type,
        otherIndex: seen.index,
        otherType: seen.field.type,
      };
      const { validation, format } = field.type === 'text' ? field : {};
      const { validation: otherValidation, format: otherFormat } =
        seen.field.type === 'text' ? seen.field : {};
      // A PDF's text field shows a date; one that asks for a kind of value (ADR 3600) or
      // a format (ADR 3870) cannot.
      const plain = (f: TemplateField) =>
        f.type === 'text' && f.validation === undefined && f.format === undefined;
      const agree =
        seen.field.type === field.type ||
        (plain(seen.field) && isDateKind(field.type)) ||
        (plain(field) && isDateKind(seen.field.type));
      if (!agree) return clash;
      if (validation !== undefined && otherValidation !== undefined && validation !== otherValidation)
        return { ...clash, validations: [validation, otherValidation] };
      if (format !== undefined && otherFormat !== undefined && format !== otherFormat)
        return { ...clash, formats: [format, otherFormat] };
      // The definition that asks for a kind of value, or a format, leads, so a later one is checked against it.
      if (
        (validation !== undefined && otherValidation === undefined) ||
        (format !== undefined && otherFormat === undefined)
      )
        first.set(field.name, { index, field });
      if (options !== undefined) {
        // The options every choice so far offers: an answer must be one of them all.
        const common = (seen.options ?? []).filter((o) => options.includes(o));
        if (common.length === 0) return { ...clash, noCommonOption: true };
        first.set(field.name, { ...seen, options: common });
      }
      // The date kind leads, so a later text field is checked against it.
      if (isDateKind(field.type)) first.set(field.name, { index, field });
    }
  return undefined;
};

/** Why `clash` is refused, said of the later contract, naming the earlier as `earlier`. */
export const clashProblem = (clash: TypeClash, earlier: string): string =>
  clash.noCommonOption === true
    ? `declares choice field "${clash.name}" with no option that ${earlier} also offers: a signer's answer must be an option of both`
    : clash.validations !== undefined
      ? `declares text field "${clash.name}" with validation ${clash.validations[0]}, and ${earlier} with ${clash.validations[1]}: no value can be both`
      : clash.formats !== undefined
        ? `declares text field "${clash.name}" with format ${clash.formats[0]}, and ${earlier} with ${clash.formats[1]}: a value is written in one`
        : `declares field "${clash.name}" as ${clash.type}, and ${earlier} declares it as ${clash.otherType}: a name is one field, so its contracts must agree on its type`;
