import assert from 'node:assert/strict';
import request from 'supertest';
import type { ContractFieldView } from '@esign/contracts';
import { appWith, contract, COOKIE, CSRF, CURRENT, ORIGIN } from '../support/fake-api.js';
import { fieldDetails, fieldsText, parseFields, writtenWhole } from '../../src/template-text.js';

const error = (typed: string) => {
  const parsed = parseFields(typed);
  return 'error' in parsed ? parsed.error : 'read';
};

/** ADR 3710: a field asked for only while a checkbox is ticked or a choice has an option, in the editor's lines. */
describe('web: the template editor writes when a field is asked for (ADR 3710)', () => {
  it('reads "if" and what follows, last on the line, and writes it back the same way', () => {
    const typed = [
      'married: checkbox',
      'spouse name: text letters_only max 80 if married',
      'plan: choice [Basic | Pro plan]',
      'seats: text numbers_only optional if plan = Pro plan',
      'start_on: date from today if plan = Pro plan',
      'sla: checkbox required if plan = Basic',
      'employer: text if not married',
      'team_name: text if plan = Basic | Pro plan',
    ].join('\n');
    const parsed = parseFields(typed);
    assert.deepEqual('fields' in parsed && parsed.fields.slice(1), [
      {
        name: 'spouse name',
        type: 'text',
        validation: 'letters_only',
        max_length: 80,
        shown_if: { field: 'married' },
      },
      { name: 'plan', type: 'choice', options: ['Basic', 'Pro plan'] },
      {
        name: 'seats',
        type: 'text',
        validation: 'numbers_only',
        required: false,
        shown_if: { field: 'plan', equals: 'Pro plan' },
      },
      { name: 'start_on', type: 'date', earliest: 'today', shown_if: { field: 'plan', equals: 'Pro plan' } },
      { name: 'sla', type: 'checkbox', required: true, shown_if: { field: 'plan', equals: 'Basic' } },
      { name: 'employer', type: 'text', shown_if: { field: 'married', equals: false } },
      { name: 'team_name', type: 'text', shown_if: { field: 'plan', equals: ['Basic', 'Pro plan'] } },
    ]);
    assert.equal('fields' in parsed && fieldsText(parsed.fields), typed);
    // ADR 3760: a box shown while ticked, said as the API may (`equals: true`), is written as without it.
    assert.equal(
      fieldsText([{ name: 'pension', type: 'text', shown_if: { field: 'married', equals: true } }]),
      'pension: text if married',
    );
    assert.equal(
      'fields' in parsed && fieldsText(parsed.fields, 'pdf').split('\n')[3],
      'seats: text numbers_only optional if plan = Pro plan',
    );
    // "if" is a word of its own: a kind of value or a name holding the letters is not a condition.
    assert.deepEqual(parseFields('gift: text if diff if'), {
      fields: [{ name: 'gift', type: 'text', shown_if: { field: 'diff if' } }],
    });
  });

  it('names what it cannot read, with its line', () => {
    assert.equal(
      error('a: text\nsig: signature if married'),
      'line 2: only a text field, checkbox, choice, date or attachment is asked for only when another is',
    );
    assert.equal(
      error('seats: text if plan ='),
      'line 1: "=" is followed by an option of "plan", or several between "|", as in "seats: text if plan = Pro | Team"',
    );
    assert.match(
      error('seats: text if'),
      /^line 1: "if" is followed by a checkbox's or a text field's name, as in "spouse: text if married"/,
    );
    assert.equal(
      error('seats: text if plan = Pro |'),
      'line 1: "=" is followed by an option of "plan", or several between "|", as in "seats: text if plan = Pro | Team"',
    );
    assert.equal(
      error('seats: text if not plan = Pro'),
      'line 1: "if not" is followed by a checkbox\'s or a text field\'s name alone, as in "employer: text if not retired"',
    );
    // What follows "if" is the name whole: the API refuses one naming no field, at its line.
    assert.deepEqual(parseFields('seats: text if married optional'), {
      fields: [{ name: 'seats', type: 'text', shown_if: { field: 'married optional' } }],
    });
  });

  it('leaves to the API a condition its lines cannot hold', () => {
    assert.equal(writtenWhole({ name: 'a', type: 'text', shown_if: { field: 'plan', equals: 'Pro' } }), true);
    assert.equal(writtenWhole({ name: 'a', type: 'text', shown_if: { field: 'x = y' } }), false);
    assert.equal(
      writtenWhole({ name: 'a', type: 'text', shown_if: { field: 'plan', equals: '[Pro]' } }),
      false,
    );
    // A box named "not …" reads as "if not …" (ADR 3760), unless the condition is that it is not ticked.
    assert.equal(writtenWhole({ name: 'a', type: 'text', shown_if: { field: 'not sure' } }), false);
    // Several options are written between "|" (ADR 3790): one holding it is left to the API.
    assert.equal(
      writtenWhole({ name: 'a', type: 'text', shown_if: { field: 'plan', equals: ['A', 'B'] } }),
      true,
    );
    assert.equal(
      writtenWhole({ name: 'a', type: 'text', shown_if: { field: 'plan', equals: ['A|B'] } }),
      false,
    );
    assert.equal(
      writtenWhole({ name: 'a', type: 'text', shown_if: { field: 'plan', equals: 'A|B' } }),
      false,
    );
    assert.equal(
      writtenWhole({ name: 'a', type: 'text', shown_if: { field: 'not sure', equals: false } }),
      true,
    );
  });

  it('says in the field table when a field is asked for', () => {
    assert.equal(
      fieldDetails({ name: 'spouse', type: 'text', required: false, shown_if: { field: 'married' } }, []),
      'optional; asked only when “married” is ticked',
    );
    assert.equal(
      fieldDetails({ name: 'seats', type: 'text', shown_if: { field: 'plan', equals: 'Pro' } }, []),
      'asked only when “plan” is “Pro”',
    );
    assert.equal(
      fieldDetails({ name: 'employer', type: 'text', shown_if: { field: 'retired', equals: false } }, []),
      'asked only when “retired” is not ticked',
    );
    assert.equal(
      fieldDetails({ name: 'seats', type: 'text', shown_if: { field: 'plan', equals: ['Pro', 'Team'] } }, []),
      'asked only when “plan” is “Pro” or “Team”',
    );
    // A text or date field filled in, or left empty (ADR 3800): the table reads its type among the template's.
    const fields: ContractFieldView[] = [
      { name: 'company', type: 'text', required: false },
      { name: 'moved_on', type: 'date', required: false },
      { name: 'vat', type: 'text', shown_if: { field: 'company' } },
      { name: 'occupation', type: 'text', shown_if: { field: 'company', equals: false } },
      { name: 'previous', type: 'text', shown_if: { field: 'moved_on', equals: true } },
    ];
    assert.deepEqual(
      fields.slice(2).map((f) => fieldDetails(f, fields)),
      [
        'asked only when “company” is filled in',
        'asked only when “company” is left empty',
        'asked only when “moved_on” is filled in',
      ],
    );
    const written = parseFields('vat: text if company\noccupation: text if not company');
    assert.deepEqual('fields' in written && written.fields, [
      { name: 'vat', type: 'text', shown_if: { field: 'company' } },
      { name: 'occupation', type: 'text', shown_if: { field: 'company', equals: false } },
    ]);
  });

  it('opens a draft’s conditions in the editor, and saves them with PUT as the API names them', async () => {
    const fields = [
      { name: 'married', type: 'checkbox' },
      { name: 'spouse', type: 'text', shown_if: { field: 'married' } },
    ];
    const draft = { ...contract(12, 'Household', 'draft', [], fields), html: '<p>Household</p>' };
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      'GET /v1.1/contracts/12': draft,
      'PUT /v1.1/contracts/12': draft,
    });
    const shown = await request(app.callback).get('/app/templates/12/edit').set('Cookie', COOKIE).expect(200);
    assert.match(shown.text, />\nmarried: checkbox\nspouse: text if married<\/textarea>/);
    await request(app.callback)
      .post('/app/templates/12/edit')
      .set('Cookie', COOKIE)
      .set('Origin', ORIGIN)
      .type('form')
      .send({
        _csrf: CSRF,
        name: 'Household',
        html: '<p>Household</p>',
        fields:
          'married: checkbox\nspouse: text optional if married\nplan: choice [A | B]\nseats: text if plan = B',
        sample: '{}',
      })
      .expect(303);
    assert.deepEqual(app.calls.find((c) => c.method === 'PUT')?.body, {
      type: 'html',
      name: 'Household',
      html: '<p>Household</p>',
      fields: [
        { name: 'married', type: 'checkbox' },
        { name: 'spouse', type: 'text', required: false, shown_if: { field: 'married' } },
        { name: 'plan', type: 'choice', options: ['A', 'B'] },
        { name: 'seats', type: 'text', shown_if: { field: 'plan', equals: 'B' } },
      ],
    });
  });
});
