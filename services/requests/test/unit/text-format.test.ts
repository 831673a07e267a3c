import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor } from '@esign/contracts';
import { fieldInput } from '../../src/adapters/http/signing/field-input.js';
import { isKnownProblem, problemText } from '../../src/adapters/http/signing/problem-messages.js';
import { typedFields } from '../../src/domain/document.js';
import { fieldView, fieldOfView } from '../../src/domain/field-views.js';
import { checkSignature, fieldsToFill } from '../../src/domain/signing.js';
import {
  checkDefaultValue,
  clashProblem,
  declareFields,
  typeClash,
} from '../../src/domain/contract-template.js';
import { htmlSpec, left, right, sent } from '../support/builders.js';

const PLATE = { name: 'plate', type: 'text', maxLength: null, format: 'AA-9999' } as const;
const request = sent({
  fields: [
    { name: 'plate', defaultValue: null, assignedTo: 'alice@example.com' },
    { name: 'signature', defaultValue: null, assignedTo: 'alice@example.com' },
  ],
});
const fieldsOf = (
  plate:
    | typeof PLATE
    | { readonly name: 'plate'; readonly type: 'text'; readonly maxLength: number; readonly format: string },
) =>
  fieldsToFill(
    typedFields(request, [htmlSpec({ fields: [plate, { name: 'signature', type: 'signature' }] })]),
    request.signers[0]!,
  );
const problems = (value: string) => {
  const checked = checkSignature(fieldsOf(PLATE), {
    values: new Map([[0, value]]),
    typedName: 'Alice',
    consent: true,
  });
  return E.isLeft(checked) ? checked.left.map((p) => p.message) : checked.right.values;
};

describe('requests domain: a text field written in a format (ADR 3870)', () => {
  it('is declared on a text field only, kept, and shown and stored as declared', () => {
    assert.deepEqual(right(declareFields([{ name: 'plate', type: 'text', format: 'AA-9999' }])), [PLATE]);
    assert.deepEqual(fieldView(PLATE), { name: 'plate', type: 'text', format: 'AA-9999' });
    assert.deepEqual(fieldOfView(fieldView(PLATE)), PLATE);
    assert.deepEqual(left(declareFields([{ name: 'n', type: 'checkbox', format: '999' }])), [
      { path: 'fields[0].format', message: 'is only allowed on a text field' },
    ]);
  });

  it('refuses a format beside a kind of value, or that its lengths cannot hold', () => {
    assert.deepEqual(
      left(declareFields([{ name: 'zip', type: 'text', validation: 'zip_code', format: '99999' }])),
      [
        {
          path: 'fields[0].format',
          message: 'must not be set with validation: a value is checked by one or the other',
        },
      ],
    );
    assert.deepEqual(left(declareFields([{ name: 'p', type: 'text', max_length: 6, format: 'AA-9999' }])), [
      { path: 'fields[0].format', message: 'describes values of 7 characters, more than max_length (6)' },
    ]);
    assert.deepEqual(left(declareFields([{ name: 'p', type: 'text', min_length: 8, format: 'AA-9999' }])), [
      {
        path: 'fields[0].min_length',
        message: 'must not be more than the 7 characters of a value written as format',
      },
    ]);
    assert.equal(
      E.isRight(
        declareFields([{ name: 'p', type: 'text', max_length: 7, min_length: 7, format: 'AA-9999' }]),
      ),
      true,
    );
  });

  it('refuses a pre-filled value written otherwise, and takes none', () => {
    assert.equal(checkDefaultValue(PLATE, 'XY-0042'), undefined);
    assert.equal(checkDefaultValue(PLATE, ''), undefined);
    assert.equal(
      checkDefaultValue(PLATE, 'XY0042'),
      'must be written as AA-9999: the format of text field "plate"',
    );
  });

  it('refuses a signer’s value written otherwise, before its length, in words the page translates', () => {
    assert.deepEqual(problems(' xy-0042 '), { plate: 'xy-0042' });
    assert.deepEqual(problems('XY0042'), ['must be written as AA-9999']);
    assert.deepEqual(problems('XY-00421'), ['must be written as AA-9999'], 'not "at most 7 characters"');
    assert.deepEqual(problems(''), ['is required']);
    assert.equal(isKnownProblem('must be written as AA-9999'), true);
    assert.equal(
      problemText(translatorFor('de'), 'must be written as AA-9999'),
      'muss als AA-9999 geschrieben sein',
    );
  });

  it('tells the signer the format and what its characters stand for, and sizes the input to it', () => {
    const [plate] = fieldsOf(PLATE);
    const html = String(fieldInput(translatorFor('en'), plate!, undefined, undefined));
    assert.match(html, /Written as AA-9999, where 9 is a digit, A is a letter/);
    assert.match(html, /maxlength="7"/);
    assert.match(html, /autocapitalize="characters"/);
    const [phone] = fieldsOf({ name: 'plate', type: 'text', maxLength: 20, format: '(999) 999-9999' });
    const numeric = String(fieldInput(translatorFor('fr'), phone!, undefined, undefined));
    assert.match(numeric, /Au format \(999\) 999-9999, où 9 est un chiffre</);
    assert.match(numeric, /inputmode="numeric"/);
    assert.match(numeric, /maxlength="14"/);
  });

  it('refuses two contracts that write a shared name in different formats, and a format where a date is shown', () => {
    const formatted = (id: number, format: string) =>
      htmlSpec({ id, name: `F${id}`, fields: [{ name: 'plate', type: 'text', maxLength: null, format }] });
    const plain = htmlSpec({
      id: 40,
      name: 'Plain',
      fields: [{ name: 'plate', type: 'text', maxLength: null }],
    });
    assert.equal(typeClash([formatted(41, 'AA-9999'), plain, formatted(42, 'AA-9999')]), undefined);
    const clash = typeClash([formatted(41, 'AA-9999'), plain, formatted(42, '999-AA')]);
    assert.equal(
      clashProblem(clash!, 'contracts[0]'),
      'declares text field "plate" with format 999-AA, and contracts[0] with AA-9999: a value is written in one',
    );
    const dated = htmlSpec({ id: 43, name: 'Dated', fields: [{ name: 'plate', type: 'date' }] });
    assert.equal(typeClash([dated, formatted(41, '9999-99-99')])?.otherType, 'date');
  });
});
