import type { ContractFieldView, ShownIf, ShownIfAny, TextValidation } from '@esign/contracts';
import type { TemplateField } from './template-fields.js';

// A template's fields as the API shows them and the store keeps them, and back.

/** What a field's two shapes spell alike, where it is set: kind of value, bounds, requirement. */
const spelledAlike = (f: {
  readonly validation?: TextValidation;
  readonly format?: string;
  readonly earliest?: string;
  readonly latest?: string;
  readonly required?: boolean;
}) => ({
  ...(f.validation !== undefined && { validation: f.validation }),
  ...(f.format !== undefined && { format: f.format }),
  ...(f.earliest !== undefined && { earliest: f.earliest }),
  ...(f.latest !== undefined && { latest: f.latest }),
  ...(f.required !== undefined && { required: f.required }),
});

/** A field's condition (ADR 3710), or conditions (ADR 3850), as the API spells them and as the domain does. */
const shownIfView = (f: { readonly shownIf?: ShownIfAny }) =>
  f.shownIf === undefined ? {} : { shown_if: f.shownIf };
const conditionOf = (c: { readonly field: string; readonly equals?: ShownIf['equals'] }): ShownIf => ({
  field: c.field,
  ...(c.equals !== undefined && { equals: c.equals }),
});
const shownIfOf = (f: ContractFieldView) =>
  f.shown_if === undefined
    ? {}
    : { shownIf: Array.isArray(f.shown_if) ? f.shown_if.map(conditionOf) : conditionOf(f.shown_if) };

/** A field as the API shows it and the store keeps it (`ContractFieldView`). */
export const fieldView = (f: TemplateField): ContractFieldView => {
  switch (f.type) {
    case 'text':
      return {
        name: f.name,
        type: f.type,
        ...(f.maxLength !== null && { max_length: f.maxLength }),
        ...(f.minLength !== undefined && { min_length: f.minLength }),
        ...spelledAlike(f),
        ...shownIfView(f),
        ...(f.conceal === true && { conceal: true }),
      };
    case 'choice':
      return { name: f.name, type: f.type, options: [...f.options], ...spelledAlike(f), ...shownIfView(f) };
    case 'checkbox':
    case 'date':
    case 'attachment':
      return { name: f.name, type: f.type, ...spelledAlike(f), ...shownIfView(f) };
    case 'signature':
    case 'date_signed':
    case 'initials':
    case 'full_name':
      return { name: f.name, type: f.type };
  }
};

/** A field as `fieldView` shows it (and the store keeps it), back in the domain's shape. */
export const fieldOfView = (f: ContractFieldView): TemplateField => {
  switch (f.type) {
    case 'text':
      return {
        name: f.name,
        type: f.type,
        maxLength: f.max_length ?? null,
        ...(f.min_length !== undefined && { minLength: f.min_length }),
        ...spelledAlike(f),
        ...shownIfOf(f),
        ...(f.conceal === true && { conceal: true as const }),
      };
    case 'choice':
      return { name: f.name, type: f.type, options: f.options ?? [], ...spelledAlike(f), ...shownIfOf(f) };
    case 'checkbox':
    case 'date':
    case 'attachment':
      return { name: f.name, type: f.type, ...spelledAlike(f), ...shownIfOf(f) };
    case 'signature':
    case 'date_signed':
    case 'initials':
    case 'full_name':
      return { name: f.name, type: f.type };
  }
};
