import assert from 'node:assert/strict';
import { takesValue } from '../../src/pages/request-field-values.js';
import { fieldsText, parseFields } from '../../src/template-text.js';

/** ADR 3910: full name fields in the editor's lines and on a draft's page. */
describe('web: full name fields (ADR 3910)', () => {
  it('reads "name: full_name", writes it back the same way, and refuses a rule or a condition on it', () => {
    const typed = 'printed_name: full_name\nsignature: signature';
    const parsed = parseFields(typed);
    assert.deepEqual('fields' in parsed && parsed.fields, [
      { name: 'printed_name', type: 'full_name' },
      { name: 'signature', type: 'signature' },
    ]);
    assert.equal('fields' in parsed && fieldsText(parsed.fields), typed);
    assert.deepEqual(parseFields('n: full_name if married'), {
      error:
        'line 1: only a text field, checkbox, choice, date or attachment is asked for only when another is',
    });
    assert.deepEqual(parseFields('n: full_name optional'), {
      error: 'line 1: only a text field, choice, date or attachment can be optional',
    });
  });

  it('takes no value on a draft: the service fills it in when its signer signs', () => {
    assert.equal(takesValue('full_name'), false);
    assert.equal(takesValue('text'), true);
  });
});
