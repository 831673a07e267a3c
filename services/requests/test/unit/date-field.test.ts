import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { checkDefaultValue, declareFields, isCalendarDate } from '../../src/domain/contract-template.js';
import { typedFields } from '../../src/domain/document.js';
import { checkSignature, fieldsToFill } from '../../src/domain/signing.js';
import { htmlSpec, right, sent } from '../support/builders.js';

const spec = htmlSpec({
  fields: [
    { name: 'start_on', type: 'date' },
    { name: 'signature', type: 'signature' },
  ],
});
const request = sent({
  fields: [
    { name: 'start_on', defaultValue: '2030-02-01', assignedTo: 'alice@example.com' },
    { name: 'signature', defaultValue: null, assignedTo: 'alice@example.com' },
  ],
});
const mine = fieldsToFill(typedFields(request, [spec]), request.signers[0]!);
const signing = (start: string | undefined) =>
  checkSignature(mine, {
    values: new Map(start === undefined ? [] : [[0, start]]),
    typedName: 'Alice',
    consent: true,
  });

describe('requests domain: a date field its signer fills in (ADR 3580)', () => {
  it('knows a calendar date written YYYY-MM-DD from anything else', () => {
    for (const good of ['2030-01-31', '2028-02-29', '1999-12-01'])
      assert.equal(isCalendarDate(good), true, good);
    for (const bad of ['2030-02-30', '2029-02-29', '2030-1-31', '31/01/2030', '2030-01-31T00:00:00Z', ''])
      assert.equal(isCalendarDate(bad), false, bad);
  });

  it('is declared by an HTML template and pre-filled only with a date', () => {
    assert.deepEqual(right(declareFields([{ name: 'start_on', type: 'date' }])), [
      { name: 'start_on', type: 'date' },
    ]);
    const field = { name: 'start_on', type: 'date' } as const;
    assert.equal(checkDefaultValue(field, '2030-02-01'), undefined);
    for (const bad of ['tomorrow', '2030-13-01', true])
      assert.match(checkDefaultValue(field, bad) ?? '', /must be a date as YYYY-MM-DD, like 2030-01-31/);
  });

  it('is asked of its signer, required, and must be a date', () => {
    assert.deepEqual(
      mine.map((f) => f.name),
      ['start_on'],
    );
    assert.deepEqual(
      signing(' 2030-03-04 '),
      E.right({ values: { start_on: '2030-03-04' }, typedName: 'Alice' }),
    );
    const problems = (start: string | undefined) =>
      E.isLeft(signing(start))
        ? (signing(start) as E.Left<{ message: string }[]>).left.map((p) => p.message)
        : [];
    assert.deepEqual(problems(undefined), ['is required']);
    assert.deepEqual(problems('04/03/2030'), ['must be a date, like 2030-01-31']);
    assert.deepEqual(problems('2030-02-31'), ['must be a date, like 2030-01-31']);
  });
});
