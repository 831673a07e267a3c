import assert from 'node:assert/strict';
import { typedFields } from '../../src/domain/document.js';
import { concealedText, isConcealed } from '../../src/domain/field-values.js';
import { fieldView } from '../../src/domain/field-views.js';
import { declareFields, type TemplateField } from '../../src/domain/template-fields.js';
import { htmlSpec, left, right, sent } from '../support/builders.js';

describe('requests domain: a field’s value concealed in the executed document (ADR 3740)', () => {
  it('is declared on a text field only, and kept as the API spells it', () => {
    const declared = right(declareFields([{ name: 'ssn', type: 'text', validation: 'ssn', conceal: true }]));
    assert.deepEqual(declared.map(fieldView), [
      { name: 'ssn', type: 'text', validation: 'ssn', conceal: true },
    ]);
    assert.deepEqual(right(declareFields([{ name: 'note', type: 'text', conceal: false }])).map(fieldView), [
      { name: 'note', type: 'text' },
    ]);
    assert.deepEqual(left(declareFields([{ name: 'ok', type: 'checkbox', conceal: true }])), [
      { path: 'fields[0].conceal', message: 'is only allowed on a text field' },
    ]);
  });

  it('keeps the last four letters or digits and the signs between them, and conceals a short value whole', () => {
    assert.equal(concealedText('123-45-6789'), '***-**-6789');
    assert.equal(concealedText('DE89 3704 0044 0532 0130 00'), '**** **** **** **** **30 00');
    assert.equal(concealedText('12345678'), '****5678');
    assert.equal(concealedText('1234567'), '*******');
    assert.equal(concealedText('Zoë Ñ'), '*** *');
  });

  it('conceals a name that any of its contracts conceals', () => {
    const plain: TemplateField = { name: 'ssn', type: 'text', maxLength: null };
    const hidden: TemplateField = { ...plain, conceal: true };
    const request = sent({ fields: [{ name: 'ssn', defaultValue: null, assignedTo: 'alice@example.com' }] });
    const field = (specs: TemplateField[][]) =>
      typedFields(
        request,
        specs.map((fields) => htmlSpec({ fields })),
      )[0]!;
    assert.equal(isConcealed(field([[plain]])), false);
    assert.equal(isConcealed(field([[plain], [hidden]])), true);
  });
});
