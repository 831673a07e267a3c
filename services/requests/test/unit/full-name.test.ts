import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { typedFields } from '../../src/domain/document.js';
import { fieldEntries } from '../../src/domain/field-values.js';
import { fieldView, fieldOfView } from '../../src/domain/field-views.js';
import { declarePdfFields } from '../../src/domain/pdf-field-rules.js';
import { executedValue, fieldsToFill, filledAtSigning, type EnteredAct } from '../../src/domain/signing.js';
import { checkDefaultValue, declareFields } from '../../src/domain/template-fields.js';
import { htmlSpec, left, right, sent } from '../support/builders.js';

const ALICE = 'alice@example.com';
const spec = htmlSpec({
  fields: [
    { name: 'printed_name', type: 'full_name' },
    { name: 'note', type: 'text', maxLength: null, required: false },
    { name: 'signature', type: 'signature' },
  ],
});
const request = sent({
  fields: ['printed_name', 'note', 'signature'].map((name) => ({
    name,
    defaultValue: null,
    assignedTo: ALICE,
  })),
});
const fields = typedFields(request, [spec]);
const signer = request.signers[0]!;
const printed = fields[0]!;

const act = (kind: EnteredAct['kind'], typedName: string | null): EnteredAct => ({
  kind,
  signerId: ALICE,
  at: '2030-01-02T10:00:00.000Z',
  typedName,
  values: { note: '' },
});

/** ADR 3910: a field holding the name its signer typed to sign. */
describe('requests domain: full name fields', () => {
  it('is declared, kept and shown like the date signed: no rule, no pre-filled value, no condition on it', () => {
    const declared = right(declareFields([{ name: 'printed_name', type: 'full_name' }]));
    assert.deepEqual(declared, [{ name: 'printed_name', type: 'full_name' }]);
    assert.deepEqual(fieldOfView(fieldView(declared[0]!)), declared[0]);
    assert.deepEqual(left(declareFields([{ name: 'n', type: 'full_name', max_length: 20 }])), [
      { path: 'fields[0].max_length', message: 'is only allowed on a text field' },
    ]);
    assert.equal(
      checkDefaultValue(declared[0]!, 'Alice'),
      'is not allowed: "printed_name" holds the name its signer types to sign, filled in when they sign',
    );
    const onName = left(
      declareFields([
        { name: 'n', type: 'full_name' },
        { name: 'why', type: 'text', shown_if: { field: 'n' } },
      ]),
    );
    assert.equal(onName[0]?.path, 'fields[1].shown_if.field');
    assert.match(onName[0]?.message ?? '', /a full name field/);
  });

  it('is not typed on the page: the page names it, and the signature fills it', () => {
    assert.deepEqual(
      fieldsToFill(fields, signer).map((f) => f.name),
      ['note'],
    );
    assert.deepEqual(
      filledAtSigning(fields, signer, 'full_name').map((f) => f.name),
      ['printed_name'],
    );
    assert.deepEqual(filledAtSigning(fields, signer, 'date_signed'), []);
  });

  it('holds the typed signature once its signer signed, nothing before or after a decline', () => {
    assert.equal(executedValue(printed, []), null);
    assert.equal(executedValue(printed, [act('signed', 'Alice Quinn Carter')]), 'Alice Quinn Carter');
    assert.equal(executedValue(printed, [act('declined', null)]), null);
    const shown = fieldEntries(fields, [act('signed', 'Alice Quinn Carter')]);
    assert.equal(shown.find((v) => v.name === 'printed_name')?.value, 'Alice Quinn Carter');
  });

  it('makes a PDF’s text field a full name field when it holds any name a signer may type', () => {
    const own = [
      { name: 'name_1', type: 'text', maxLength: null },
      { name: 'name_2', type: 'text', maxLength: 40 },
    ] as const;
    assert.deepEqual(
      declarePdfFields(own, [{ name: 'name_1', type: 'full_name' }]),
      E.right([{ name: 'name_1', type: 'full_name' }, own[1]]),
    );
    assert.deepEqual(left(declarePdfFields(own, [{ name: 'name_2', type: 'full_name' }])), [
      {
        path: 'fields[0].type',
        message:
          'cannot be a full name: the PDF\'s field "name_2" holds at most 40 characters, and a signer\'s name may take up to 200',
      },
    ]);
  });
});
