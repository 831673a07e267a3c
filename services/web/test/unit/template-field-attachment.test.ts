import assert from 'node:assert/strict';
import { takesValue } from '../../src/pages/request-field-values.js';
import { fieldsText, parseFields } from '../../src/template-text.js';

/** ADR 3920: attachment fields in the editor's lines and on a draft's page. */
describe('web: attachment fields (ADR 3920)', () => {
  it('reads "name: attachment", optional and on a condition, and writes it back the same way', () => {
    const typed = 'id_document: attachment\nproof: attachment optional if has_proof\nhas_proof: checkbox';
    const parsed = parseFields(typed);
    assert.deepEqual('fields' in parsed && parsed.fields, [
      { name: 'id_document', type: 'attachment' },
      { name: 'proof', type: 'attachment', required: false, shown_if: { field: 'has_proof' } },
      { name: 'has_proof', type: 'checkbox' },
    ]);
    assert.equal('fields' in parsed && fieldsText(parsed.fields), typed);
    assert.deepEqual(parseFields('a: attachment max 3'), {
      error: 'line 1: only a text field has a length limit, as in "name: text max 40"',
    });
  });

  it('takes no value on a draft: its signer uploads it when they sign', () => {
    assert.equal(takesValue('attachment'), false);
  });
});
