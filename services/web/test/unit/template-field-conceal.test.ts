import assert from 'node:assert/strict';
import { fieldDetails, fieldsText, parseFields } from '../../src/template-text.js';

/** ADR 3740: a text field whose value the executed document conceals, in the editor's lines. */
describe('web: the template editor writes a concealed field (ADR 3740)', () => {
  it('reads "conceal" on a text field, writes it back the same way, and says so in the field table', () => {
    const typed = 'ssn: text ssn conceal\nspouse_ssn: text ssn optional conceal if married';
    const parsed = parseFields(typed);
    assert.deepEqual('fields' in parsed && parsed.fields, [
      { name: 'ssn', type: 'text', validation: 'ssn', conceal: true },
      {
        name: 'spouse_ssn',
        type: 'text',
        validation: 'ssn',
        required: false,
        conceal: true,
        shown_if: { field: 'married' },
      },
    ]);
    assert.equal('fields' in parsed && fieldsText(parsed.fields), typed);
    assert.deepEqual(parseFields('married: checkbox conceal'), {
      error: 'line 1: only a text field is concealed in the executed document, as in "ssn: text ssn conceal"',
    });
    assert.equal(
      fieldDetails({ name: 'ssn', type: 'text', validation: 'ssn', conceal: true }, []),
      'asks for a US Social Security number; concealed in the executed document',
    );
  });
});
