import * as E from 'fp-ts/lib/Either.js';
import type { Translator } from '@esign/contracts';
import { fieldInput } from '../../src/adapters/http/signing/field-input.js';
import { askedWhen } from '../../src/adapters/http/signing/shown-if.js';
import type { Answered } from '../../src/domain/answers.js';
import { typedFields, type TypedField } from '../../src/domain/document.js';
import { checkSignature, fieldsToFill } from '../../src/domain/signing.js';
import type { TemplateField } from '../../src/domain/template-fields.js';
import { htmlSpec, sent } from './builders.js';

/**
 * One signer's fields of a sent Request made with templates of `templates` fields (each
 * list one contract's), every field by name assigned to them.
 */
export const signerFields = (...templates: TemplateField[][]): TypedField[] => {
  const names = [...new Set(templates.flat().map((f) => f.name))];
  const request = sent({
    fields: names.map((name) => ({ name, defaultValue: null, assignedTo: 'alice@example.com' })),
  });
  return fieldsToFill(
    typedFields(
      request,
      templates.map((fields) => htmlSpec({ fields })),
    ),
    request.signers[0]!,
  );
};

/** What signing with `values` (by field name) gives. */
export const signing = (values: Record<string, string>, fields: readonly TypedField[]) =>
  checkSignature(fields, {
    values: new Map(
      fields.flatMap((f) => (values[f.name] === undefined ? [] : [[f.index, values[f.name]!]])),
    ),
    typedName: 'Alice',
    consent: true,
  });

/**
 * What signing with `values` is refused for: each problem's field by name, or its target
 * (`TypedName`, `Consent`); none when it is taken.
 */
export const refused = (values: Record<string, string>, fields: readonly TypedField[]): string[] => {
  const signed = signing(values, fields);
  return E.isLeft(signed)
    ? signed.left.map(({ target }) =>
        target._tag === 'Field' ? fields.find((f) => f.index === target.index)!.name : target._tag,
      )
    : [];
};

/**
 * The signer's page's block for one of `mine` (ADR 3710): the field's input alone, in a
 * block that says when it is asked for, or nothing, with `answered` what other signers
 * signed with (ADR 3840).
 */
export const blockOf = (
  tr: Translator,
  field: TypedField,
  mine: readonly TypedField[],
  answered: readonly Answered[] = [],
): string => {
  const html = askedWhen(tr, field, { mine, answered }, fieldInput(tr, field, undefined, undefined));
  return html === '' ? '' : html.value;
};
