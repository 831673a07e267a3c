import assert from 'node:assert/strict';
import { fieldsText, parseFields } from '../../src/template-text.js';

/** ADR 3900: initials fields in the editor's lines. */
describe('web: the template editor writes initials fields (ADR 3900)', () => {
  it('reads "name: initials", writes it back the same way, and refuses a rule or a condition on it', () => {
    const typed = 'initials_page_1: initials\nsignature: signature';
    const parsed = parseFields(typed);
    assert.deepEqual('fields' in parsed && parsed.fields, [
      { name: 'initials_page_1', type: 'initials' },
      { name: 'signature', type: 'signature' },
    ]);
    assert.equal('fields' in parsed && fieldsText(parsed.fields), typed);
    assert.deepEqual(parseFields('i: initials if married'), {
      error:
        'line 1: only a text field, checkbox, choice, date or attachment is asked for only when another is',
    });
    assert.deepEqual(parseFields('i: initials optional'), {
      error: 'line 1: only a text field, choice, date or attachment can be optional',
    });
  });
});
