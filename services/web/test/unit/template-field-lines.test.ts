import assert from 'node:assert/strict';
import request from 'supertest';
import type { ContractFieldView } from '@esign/contracts';
import { appWith, contract, COOKIE, CSRF, CURRENT, ORIGIN } from '../support/fake-api.js';
import { inEditor } from '../../src/pages/template-editor.js';
import { fieldsText, parseFields, writtenWhole } from '../../src/template-text.js';

const error = (typed: string) => {
  const parsed = parseFields(typed);
  return 'error' in parsed ? parsed.error : 'read';
};

/** ADR 3640: every field an HTML template declares, written and read back in the editor's lines. */
describe('web: the template editor writes choices, length limits and date bounds (ADR 3640)', () => {
  it('reads a choice’s options, a text field’s limit and a date’s bounds, and writes them back the same way', () => {
    const typed = [
      'plan: choice [Basic | Pro plan | Enterprise (annual)] optional',
      'name: text max 40',
      'code: text min 6 max 8',
      'phone: text phone_number max 20 optional',
      'start_on: date from today to 2030-12-31',
      'end_on: date to 2031-01-31',
      'terms: checkbox required',
    ].join('\n');
    const parsed = parseFields(typed);
    assert.deepEqual(parsed, {
      fields: [
        {
          name: 'plan',
          type: 'choice',
          options: ['Basic', 'Pro plan', 'Enterprise (annual)'],
          required: false,
        },
        { name: 'name', type: 'text', max_length: 40 },
        { name: 'code', type: 'text', min_length: 6, max_length: 8 },
        { name: 'phone', type: 'text', validation: 'phone_number', max_length: 20, required: false },
        { name: 'start_on', type: 'date', earliest: 'today', latest: '2030-12-31' },
        { name: 'end_on', type: 'date', latest: '2031-01-31' },
        { name: 'terms', type: 'checkbox', required: true },
      ],
    });
    assert.equal('fields' in parsed && fieldsText(parsed.fields), typed);
    assert.deepEqual(parseFields('plan: choice[ A|B ]'), {
      fields: [{ name: 'plan', type: 'choice', options: ['A', 'B'] }],
    });
  });

  it('names what it cannot read, with its line', () => {
    assert.equal(
      error('plan: choice'),
      'line 1: a choice lists its options in brackets, as in "plan: choice [Basic | Pro]"',
    );
    assert.equal(error('a: text\nname: text [A | B]'), 'line 2: only a choice lists options in brackets');
    assert.equal(error('plan: choice [A | | B]'), 'line 1: an option between "|" is empty');
    assert.equal(error('plan: choice [A | B | A]'), 'line 1: the option "A" is listed twice');
    assert.equal(
      error('ok: checkbox max 3'),
      'line 1: only a text field has a length limit, as in "name: text max 40"',
    );
    for (const typed of ['name: text max', 'name: text max 0', 'name: text max forty'])
      assert.equal(
        error(typed),
        'line 1: "max" is followed by the most characters it takes, as in "name: text max 40"',
      );
    assert.equal(error('code: text min 9 max 8'), 'line 1: "min 9" is more than "max 8"');
    assert.equal(
      error('code: text min'),
      'line 1: "min" is followed by the fewest characters it takes, as in "code: text min 6"',
    );
    assert.equal(
      error('ok: checkbox min 2'),
      'line 1: only a text field has a length limit, as in "code: text min 6"',
    );
    assert.equal(
      error('name: text from today'),
      'line 1: only a date has "from", as in "start_on: date from today"',
    );
    assert.equal(
      error('on: date to 2030-02-30'),
      'line 1: "to" is followed by a date as YYYY-MM-DD, "today", or "today+N" or "today-N" days, as in "start_on: date to today"',
    );
    assert.equal(
      error('on: date from 2030-06-01 to 2030-05-31'),
      'line 1: "to 2030-05-31" is before "from 2030-06-01"',
    );
    assert.equal(error('on: date from today to 2020-01-01'), 'read', 'a bound of today is the signer’s day');
    // ADR 3650: a bound moved from the signer's day by whole days.
    assert.deepEqual(parseFields('on: date from today-7 to today+90'), {
      fields: [{ name: 'on', type: 'date', earliest: 'today-7', latest: 'today+90' }],
    });
    assert.equal(
      error('on: date from today+30 to today+7'),
      'line 1: "to today+7" is before "from today+30"',
    );
    assert.equal(
      error('on: date to today+0'),
      'line 1: "to" is followed by a date as YYYY-MM-DD, "today", or "today+N" or "today-N" days, as in "start_on: date to today"',
    );
    assert.equal(
      error('plan: choice [A] required'),
      'line 1: only a checkbox is marked required: other fields are, unless optional',
    );
  });

  it('opens every draft whose lines hold its fields whole, and leaves the rest to the API', () => {
    const draft = (fields: ContractFieldView[]) =>
      ({ ...contract(12, 'NDA', 'draft', [], fields), html: '<p>x</p>' }) as unknown as Parameters<
        typeof inEditor
      >[0];
    assert.equal(
      inEditor(
        draft([
          { name: 'plan', type: 'choice', options: ['Basic', 'Pro'] },
          { name: 'name', type: 'text', max_length: 40 },
          { name: 'on', type: 'date', earliest: 'today' },
        ]),
      ),
      true,
    );
    const odd: ContractFieldView[] = [
      { name: 'plan', type: 'choice', options: ['Yes | no'] },
      { name: 'plan', type: 'choice', options: ['[A]'] },
      { name: 'plan', type: 'choice', options: [' padded'] },
      { name: 'time: start', type: 'text' },
    ];
    for (const field of odd) {
      assert.equal(writtenWhole(field), false, JSON.stringify(field));
      assert.equal(inEditor(draft([field])), false);
    }
  });

  it('opens a draft with a choice and bounds in the editor as lines, and saves them with PUT as the API names them', async () => {
    const fields = [
      { name: 'plan', type: 'choice', options: ['Basic', 'Pro'], required: false },
      { name: 'start_on', type: 'date', earliest: 'today' },
    ];
    const draft = { ...contract(12, 'NDA', 'draft', [], fields), html: '<p>Plan</p>' };
    const app = appWith({
      'GET /v1.1/sessions/current': CURRENT,
      'GET /v1.1/contracts/12': draft,
      'PUT /v1.1/contracts/12': draft,
    });
    const shown = await request(app.callback).get('/app/templates/12/edit').set('Cookie', COOKIE).expect(200);
    assert.match(
      shown.text,
      />\nplan: choice \[Basic \| Pro\] optional\nstart_on: date from today<\/textarea>/,
    );
    await request(app.callback)
      .post('/app/templates/12/edit')
      .set('Cookie', COOKIE)
      .set('Origin', ORIGIN)
      .type('form')
      .send({
        _csrf: CSRF,
        name: 'NDA',
        html: '<p>Plan</p>',
        fields: 'plan: choice [Basic | Pro | Team] optional\nname: text max 60\nstart_on: date from today',
        sample: '{}',
      })
      .expect(303);
    assert.deepEqual(app.calls.find((c) => c.method === 'PUT')?.body, {
      type: 'html',
      name: 'NDA',
      html: '<p>Plan</p>',
      fields: [
        { name: 'plan', type: 'choice', options: ['Basic', 'Pro', 'Team'], required: false },
        { name: 'name', type: 'text', max_length: 60 },
        { name: 'start_on', type: 'date', earliest: 'today' },
      ],
    });
  });
});
