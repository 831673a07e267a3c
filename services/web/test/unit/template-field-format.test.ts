import assert from 'node:assert/strict';
import { fieldDetails, fieldsText, parseFields } from '../../src/template-text.js';
import { writtenWhole } from '../../src/template-field-lines.js';

/** ADR 3870: a text field written in a format, in the editor's lines. */
describe('web: the template editor writes a text field’s format (ADR 3870)', () => {
  it('reads "format" and its format on a text field, writes it back the same way, and says so in the field table', () => {
    const typed = 'plate: text format AA-9999 optional\nphone: text format (999)999-9999 max 13 if married';
    const parsed = parseFields(typed);
    assert.deepEqual('fields' in parsed && parsed.fields, [
      { name: 'plate', type: 'text', format: 'AA-9999', required: false },
      {
        name: 'phone',
        type: 'text',
        format: '(999)999-9999',
        max_length: 13,
        shown_if: { field: 'married' },
      },
    ]);
    assert.equal('fields' in parsed && fieldsText(parsed.fields), typed);
    assert.equal(
      fieldDetails({ name: 'plate', type: 'text', format: 'AA-9999', required: false }, []),
      'written as AA-9999; optional',
    );
  });

  it('names a format it cannot take, and one on another type, with its line', () => {
    assert.deepEqual(parseFields('plate: text format ---'), {
      error:
        'line 1: the format must hold at least one 9 (a digit), A (a letter) or * (either), like AA-9999',
    });
    assert.deepEqual(parseFields('name: text\nplate: text format'), {
      error:
        'line 2: "format" is followed by the format, 9 a digit, A a letter and * either, as in "plate: text format AA-9999"',
    });
    assert.deepEqual(parseFields('married: checkbox format 999'), {
      error: 'line 1: only a text field is written in a format, as in "plate: text format AA-9999"',
    });
  });

  it('leaves a format with a space to the API’s PUT: the lines could not read it back', () => {
    assert.equal(writtenWhole({ name: 'plate', type: 'text', format: 'AA-9999' }), true);
    assert.equal(writtenWhole({ name: 'plate', type: 'text', format: 'AA 9999' }), false);
  });
});
