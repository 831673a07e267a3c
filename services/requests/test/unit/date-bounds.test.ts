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

describe('requests domain: a date field’s earliest and latest dates (ADR 3620)', () => {
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
        { path: 'fields[1].latest', message: 'must be a date as YYYY-MM-DD, like 2030-01-31, or "today"' },
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
});
