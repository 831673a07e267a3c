import assert from 'node:assert/strict';
import { contract } from '../support/fake-api.js';
import { inEditor } from '../../src/pages/template-editor.js';
import { fieldDetails, fieldsText, parseFields } from '../../src/template-text.js';

describe('web: the template editor’s words after a field’s type (ADRs 3600, 3610)', () => {
  it('reads optional fields and checkboxes that must be ticked, and writes them back the same way', () => {
    const typed =
      'note: text optional\nphone: text phone_number optional\nstart_on: date optional\nterms: checkbox required\nsignature: signature';
    const parsed = parseFields(typed);
    assert.deepEqual(parsed, {
      fields: [
        { name: 'note', type: 'text', required: false },
        { name: 'phone', type: 'text', validation: 'phone_number', required: false },
        { name: 'start_on', type: 'date', required: false },
        { name: 'terms', type: 'checkbox', required: true },
        { name: 'signature', type: 'signature' },
      ],
    });
    assert.equal('fields' in parsed && fieldsText(parsed.fields), typed);
  });

  it('names a word that does not fit its field’s type', () => {
    assert.deepEqual(parseFields('signature: signature optional'), {
      error: 'line 1: only a text field, choice, date or attachment can be optional',
    });
    assert.deepEqual(parseFields('a: text\nname: text required'), {
      error: 'line 2: only a checkbox is marked required: other fields are, unless optional',
    });
  });

  it('says in the template’s field table what each field asks of its signer', () => {
    assert.equal(fieldDetails({ name: 'plan', type: 'choice', options: ['Basic', 'Pro'] }, []), 'Basic, Pro');
    assert.equal(
      fieldDetails(
        {
          name: 'phone',
          type: 'text',
          max_length: 20,
          validation: 'phone_number',
          required: false,
        },
        [],
      ),
      'at most 20 characters; asks for a 10-digit phone number; optional',
    );
    assert.equal(fieldDetails({ name: 'terms', type: 'checkbox', required: true }, []), 'must be ticked');
    assert.equal(
      fieldDetails({ name: 'code', type: 'text', min_length: 6, max_length: 8 }, []),
      'at least 6 characters; at most 8 characters',
    );
    assert.equal(
      fieldDetails({ name: 'start_on', type: 'date', earliest: 'today', latest: '2030-12-31' }, []),
      'on or after today; on or before 2030-12-31',
    );
    assert.equal(
      fieldDetails({ name: 'start_on', type: 'date', earliest: 'today+1', latest: 'today-1' }, []),
      'on or after today + 1 day; on or before today − 1 day',
    );
    assert.equal(
      fieldDetails({ name: 'start_on', type: 'date', latest: 'today+90' }, []),
      'on or before today + 90 days',
    );
    const bounded = {
      ...contract(5, 'Start', 'draft', [], [{ name: 'start_on', type: 'date', earliest: 'today' }]),
      html: '<p>Start</p>',
    } as unknown as Parameters<typeof inEditor>[0];
    assert.equal(inEditor(bounded), true, 'the editor writes a date’s bounds (ADR 3640)');
    assert.equal(fieldDetails({ name: 'signature', type: 'signature' }, []), '');
  });
});
