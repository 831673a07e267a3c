import assert from 'node:assert/strict';
import type { ContractFieldView } from '@esign/contracts';
import { fieldDetails, fieldsText, parseFields, writtenWhole } from '../../src/template-text.js';

const error = (typed: string) => {
  const parsed = parseFields(typed);
  return 'error' in parsed ? parsed.error : 'read';
};

/** ADR 3850: a field asked for while any of several conditions holds, in the editor's lines and field table. */
describe('web: the template editor writes a field asked for on any of several conditions (ADR 3850)', () => {
  it('reads conditions joined by "or" as a list, and writes them back the same way', () => {
    const typed = [
      'married: checkbox',
      'plan: choice [Basic | Pro | Team]',
      'contact: text if married or plan = Pro | Team or not company',
      'spouse: text if married',
    ].join('\n');
    const parsed = parseFields(typed);
    assert.deepEqual('fields' in parsed && parsed.fields.slice(2), [
      {
        name: 'contact',
        type: 'text',
        shown_if: [
          { field: 'married' },
          { field: 'plan', equals: ['Pro', 'Team'] },
          { field: 'company', equals: false },
        ],
      },
      { name: 'spouse', type: 'text', shown_if: { field: 'married' } },
    ]);
    assert.equal('fields' in parsed && fieldsText(parsed.fields), typed);
  });

  it('names a condition missing beside "or", with its line', () => {
    assert.equal(
      error('contact: text if married or  or plan = Pro'),
      'line 1: "or" joins two conditions, as in "contact: text if married or plan = Pro"',
    );
    assert.equal(
      error('contact: text if married or'),
      'line 1: "or" joins two conditions, as in "contact: text if married or plan = Pro"',
    );
    assert.equal(
      error('contact: text if married or plan ='),
      'line 1: "=" is followed by an option of "plan", or several between "|", as in "seats: text if plan = Pro | Team"',
    );
  });

  it('leaves to the API conditions the word "or" would split, or a list of one', () => {
    const shownIf = (c: ContractFieldView['shown_if']): ContractFieldView => ({
      name: 'a',
      type: 'text',
      shown_if: c,
    });
    assert.equal(writtenWhole(shownIf([{ field: 'married' }, { field: 'plan', equals: 'Pro' }])), true);
    assert.equal(writtenWhole(shownIf([{ field: 'married' }])), false, 'it would read back as one');
    assert.equal(writtenWhole(shownIf({ field: 'plan', equals: 'Now or later' })), false);
    assert.equal(writtenWhole(shownIf([{ field: 'married' }, { field: 'home or away' }])), false);
    assert.equal(writtenWhole(shownIf([{ field: 'married' }, { field: 'x = y' }])), false);
  });

  it('says every condition in the field table', () => {
    const fields: ContractFieldView[] = [
      { name: 'married', type: 'checkbox' },
      { name: 'company', type: 'text', required: false },
      {
        name: 'contact',
        type: 'text',
        shown_if: [{ field: 'married' }, { field: 'plan', equals: ['Pro', 'Team'] }, { field: 'company' }],
      },
    ];
    assert.equal(
      fieldDetails(fields[2]!, fields),
      'asked only when “married” is ticked, “plan” is “Pro” or “Team”, or “company” is filled in',
    );
  });
});
