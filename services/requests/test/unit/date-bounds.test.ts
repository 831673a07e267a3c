import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor } from '@esign/contracts';
import { fieldInput } from '../../src/adapters/http/signing/field-input.js';
import { isKnownProblem, problemText } from '../../src/adapters/http/signing/problem-messages.js';
import { typedFields } from '../../src/domain/document.js';
import { checkSignature, fieldsToFill } from '../../src/domain/signing.js';
import { checkDefaultValue, declareFields, type TemplateField } from '../../src/domain/template-fields.js';
import { fieldView } from '../../src/domain/field-views.js';
import { htmlSpec, left, right, sent } from '../support/builders.js';

const START: TemplateField = { name: 'start_on', type: 'date', earliest: 'today', latest: '2031-12-31' };
const spec = htmlSpec({ fields: [START, { name: 'signature', type: 'signature' }] });
const request = sent({
  fields: [
    { name: 'start_on', defaultValue: null, assignedTo: 'alice@example.com' },
    { name: 'signature', defaultValue: null, assignedTo: 'alice@example.com' },
  ],
});
const mine = fieldsToFill(typedFields(request, [spec]), request.signers[0]!);
const problems = (value: string, today: string) => {
  const checked = checkSignature(mine, {
    values: new Map([[0, value]]),
    typedName: 'Alice',
    consent: true,
    today,
  });
  return E.isLeft(checked) ? checked.left.map((p) => p.message) : checked.right.values;
};

describe('requests domain: a date field’s earliest and latest dates (ADRs 3620, 3650)', () => {
  it('is declared on a date field as YYYY-MM-DD or "today", the earliest not after the latest', () => {
    assert.deepEqual(
      right(declareFields([{ name: 'start_on', type: 'date', earliest: 'today', latest: '2031-12-31' }])).map(
        fieldView,
      ),
      [{ name: 'start_on', type: 'date', earliest: 'today', latest: '2031-12-31' }],
    );
    assert.deepEqual(
      left(
        declareFields([
          { name: 'a', type: 'text', earliest: 'today' },
          { name: 'b', type: 'date', latest: 'tomorrow' },
          { name: 'c', type: 'date', earliest: '2031-01-02', latest: '2031-01-01' },
        ]),
      ),
      [
        { path: 'fields[0].earliest', message: 'is only allowed on a date field' },
        {
          path: 'fields[1].latest',
          message:
            'must be a date as YYYY-MM-DD, like 2030-01-31, "today", or "today+N" or "today-N" days (N at most 3660)',
        },
        { path: 'fields[2].latest', message: 'must not be before earliest (2031-01-02)' },
      ],
    );
  });

  it('refuses a signer’s date outside its bounds, "today" being the day they sign', () => {
    assert.deepEqual(problems('2030-06-01', '2030-06-01'), { start_on: '2030-06-01' });
    assert.deepEqual(problems('2030-05-31', '2030-06-01'), ['must be on or after 2030-06-01']);
    assert.deepEqual(problems('2032-01-01', '2030-06-01'), ['must be on or before 2031-12-31']);
    const de = translatorFor('de');
    for (const message of ['must be on or after 2030-06-01', 'must be on or before 2031-12-31']) {
      assert.equal(isKnownProblem(message), true, message);
      assert.match(problemText(de, message), /^muss am 20\d\d-\d\d-\d\d oder (später|früher) sein$/);
    }
  });

  it('checks a pre-filled date against the fixed bounds only: the signer’s day is not known yet', () => {
    assert.equal(checkDefaultValue(START, '2020-01-01'), undefined);
    assert.equal(
      checkDefaultValue(START, '2032-01-01'),
      'must be on or before 2031-12-31: the bounds of date field "start_on"',
    );
  });

  it('sets the picker’s min and max, "today" as the page’s day', () => {
    const shown = String(fieldInput(translatorFor('en'), mine[0]!, undefined, undefined, '2030-06-01'));
    assert.match(
      shown,
      /<input type="date" id="f-0" name="f0" value="" min="2030-06-01" max="2031-12-31" required>/,
    );
  });

  it('moves a bound from the signer’s day by whole days: "today+30", "today-7" (ADR 3650)', () => {
    const declared = (earliest: string, latest: string) =>
      declareFields([{ name: 'on', type: 'date', earliest, latest }]);
    assert.deepEqual(right(declared('today-7', 'today+30')).map(fieldView), [
      { name: 'on', type: 'date', earliest: 'today-7', latest: 'today+30' },
    ]);
    for (const odd of ['today+0', 'today+3661', 'today + 3', 'today+1.5', 'Today+3'])
      assert.equal(left(declared('today', odd))[0]!.path, 'fields[0].latest', odd);
    assert.deepEqual(left(declared('today+30', 'today+7')), [
      { path: 'fields[0].latest', message: 'must not be before earliest (today+30)' },
    ]);
    assert.equal(
      E.isRight(declared('today+30', '2020-01-01')),
      true,
      'a fixed and a moving bound cross only on some days',
    );

    const within: TemplateField = { name: 'start_on', type: 'date', earliest: 'today+1', latest: 'today+30' };
    const fields = fieldsToFill(
      typedFields(request, [htmlSpec({ fields: [within, { name: 'signature', type: 'signature' }] })]),
      request.signers[0]!,
    );
    const signed = (value: string, today: string) => {
      const checked = checkSignature(fields, {
        values: new Map([[0, value]]),
        typedName: 'Alice',
        consent: true,
        today,
      });
      return E.isLeft(checked) ? checked.left.map((p) => p.message) : 'signed';
    };
    assert.deepEqual(signed('2030-12-31', '2030-12-31'), ['must be on or after 2031-01-01'], 'across a year');
    assert.equal(signed('2031-01-01', '2030-12-31'), 'signed');
    assert.equal(signed('2031-01-30', '2030-12-31'), 'signed');
    assert.deepEqual(signed('2031-01-31', '2030-12-31'), ['must be on or before 2031-01-30']);
    assert.deepEqual(signed('2024-03-01', '2024-01-30'), ['must be on or before 2024-02-29'], 'a leap year');
    assert.equal(checkDefaultValue(within, '2000-01-01'), undefined, 'not checked before the signer’s day');
    assert.match(
      String(fieldInput(translatorFor('en'), fields[0]!, undefined, undefined, '2030-12-31')),
      /min="2031-01-01" max="2031-01-30"/,
    );
  });
});
