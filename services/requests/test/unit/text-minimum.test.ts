import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor } from '@esign/contracts';
import { fieldInput } from '../../src/adapters/http/signing/field-input.js';
import { isKnownProblem, problemText } from '../../src/adapters/http/signing/problem-messages.js';
import { typedFields } from '../../src/domain/document.js';
import { checkSignature, fieldsToFill } from '../../src/domain/signing.js';
import { checkDefaultValue, declareFields, type TemplateField } from '../../src/domain/template-fields.js';
import { fieldOfView, fieldView } from '../../src/domain/field-views.js';
import { htmlSpec, left, right, sent } from '../support/builders.js';

const CODE: TemplateField = { name: 'code', type: 'text', maxLength: 8, minLength: 6, required: false };
const request = sent({
  fields: [
    { name: 'code', defaultValue: null, assignedTo: 'alice@example.com' },
    { name: 'signature', defaultValue: null, assignedTo: 'alice@example.com' },
  ],
});
/** The code field as the signer's page has it, from one or two contracts. */
const codeField = (...specs: ReturnType<typeof htmlSpec>[]) =>
  fieldsToFill(typedFields(request, specs), request.signers[0]!)[0]!;
const spec = htmlSpec({ fields: [CODE, { name: 'signature', type: 'signature' }] });
const signed = (value: string, field = codeField(spec)) => {
  const checked = checkSignature([field], {
    values: new Map([[field.index, value]]),
    typedName: 'A',
    consent: true,
  });
  return E.isLeft(checked) ? checked.left.map((p) => p.message) : checked.right.values;
};

describe('requests domain: a text field’s fewest characters (ADR 3660)', () => {
  it('is declared on a text field, not more than its max_length, and shown and kept as declared', () => {
    const declared = right(declareFields([{ name: 'code', type: 'text', min_length: 6, max_length: 8 }]));
    assert.deepEqual(declared.map(fieldView), [{ name: 'code', type: 'text', max_length: 8, min_length: 6 }]);
    assert.deepEqual(
      declared.map(fieldView).map(fieldOfView),
      declared,
      'the store’s shape reads back the same',
    );
    assert.deepEqual(
      left(
        declareFields([
          { name: 'ok', type: 'checkbox', min_length: 2 },
          { name: 'code', type: 'text', min_length: 9, max_length: 8 },
        ]),
      ),
      [
        { path: 'fields[0].min_length', message: 'is only allowed on a text field' },
        { path: 'fields[1].min_length', message: 'must not be more than max_length (8)' },
      ],
    );
  });

  it('refuses a shorter value from the signer, counting characters, and lets an optional one stay empty', () => {
    assert.deepEqual(signed('12345'), ['must be at least 6 characters']);
    assert.deepEqual(signed('  12345  '), ['must be at least 6 characters'], 'trimmed first');
    assert.deepEqual(signed('ééééé'), ['must be at least 6 characters']);
    assert.deepEqual(signed('123456'), { code: '123456' });
    assert.deepEqual(signed(''), { code: '' }, 'optional: the minimum is for what is typed');
    const longer = htmlSpec({
      id: 40,
      name: 'Longer',
      fields: [{ name: 'code', type: 'text', maxLength: null, minLength: 7 }],
    });
    assert.deepEqual(
      signed('123456', codeField(spec, longer)),
      ['must be at least 7 characters'],
      'the largest minimum',
    );
    const de = translatorFor('de');
    assert.equal(isKnownProblem('must be at least 6 characters'), true);
    assert.equal(problemText(de, 'must be at least 6 characters'), 'muss mindestens 6 Zeichen lang sein');
  });

  it('refuses a shorter pre-filled value, but not an empty one', () => {
    assert.equal(
      checkDefaultValue(CODE, '123'),
      'must be at least 6 characters: the minimum of text field "code"',
    );
    assert.equal(checkDefaultValue(CODE, ''), undefined);
    assert.equal(checkDefaultValue(CODE, '123456'), undefined);
  });

  it('says it under the label and sets minlength on the input', () => {
    const shown = String(fieldInput(translatorFor('en'), codeField(spec), undefined, undefined));
    assert.match(shown, /<p class="hint" id="f-0-hint">At least 6 characters<\/p>/);
    assert.match(shown, /minlength="6" maxlength="8"/);
    assert.match(shown, /aria-describedby="f-0-hint"/);
  });
});
