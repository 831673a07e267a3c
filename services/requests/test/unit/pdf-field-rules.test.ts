import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import type { DeclaredField } from '@esign/contracts';
import { declarePdfFields } from '../../src/domain/pdf-field-rules.js';
import type { TemplateField } from '../../src/domain/template-fields.js';

/** A PDF's own form fields, as the worker reads them from the file. */
const OWN: readonly TemplateField[] = [
  { name: 'tenant', type: 'text', maxLength: 40 },
  { name: 'zip', type: 'text', maxLength: null },
  { name: 'pets', type: 'checkbox' },
  { name: 'term', type: 'choice', options: ['12 months', '24 months'] },
  { name: 'start', type: 'text', maxLength: null },
  { name: 'signed_on', type: 'text', maxLength: 8 },
  { name: 'signature', type: 'signature' },
];

const declared = (fields: readonly DeclaredField[]) => declarePdfFields(OWN, fields);
const problems = (fields: readonly DeclaredField[]) => {
  const answer = declared(fields);
  assert.ok(E.isLeft(answer), 'refused');
  return answer.left;
};

/** ADR 3670: a PDF template's own form fields, with rules declared for some of them. */
describe('requests domain: rules declared for a PDF’s own fields', () => {
  it('keeps the PDF’s fields as read when none are declared', () => {
    assert.deepEqual(declared([]), E.right(OWN));
  });

  it('gives the named fields their rules, in the PDF’s order, the others as read', () => {
    const answer = declared([
      { name: 'start', type: 'date', earliest: 'today', latest: 'today+90', required: false },
      { name: 'zip', type: 'text', validation: 'zip_code', min_length: 5 },
      { name: 'pets', type: 'checkbox', required: true },
      { name: 'term', type: 'choice', required: false },
      { name: 'tenant', type: 'text', max_length: 30 },
    ]);
    assert.deepEqual(
      answer,
      E.right([
        { name: 'tenant', type: 'text', maxLength: 30 },
        { name: 'zip', type: 'text', maxLength: null, minLength: 5, validation: 'zip_code' },
        { name: 'pets', type: 'checkbox', required: true },
        // A choice keeps the PDF's options.
        { name: 'term', type: 'choice', options: ['12 months', '24 months'], required: false },
        { name: 'start', type: 'date', earliest: 'today', latest: 'today+90', required: false },
        { name: 'signed_on', type: 'text', maxLength: 8 },
        { name: 'signature', type: 'signature' },
      ]),
    );
  });

  it('keeps a text field’s own limit unless a smaller one is declared', () => {
    assert.deepEqual(
      E.map((fields: readonly TemplateField[]) => fields[0])(
        declared([{ name: 'tenant', type: 'text', validation: 'email_address', required: false }]),
      ),
      E.right({ name: 'tenant', type: 'text', maxLength: 40, validation: 'email_address', required: false }),
    );
  });

  it('writes a text field in a format within the PDF field’s own limit (ADR 3870)', () => {
    assert.deepEqual(
      E.map((fields: readonly TemplateField[]) => fields[5])(
        declared([{ name: 'signed_on', type: 'text', format: '99-99-99' }]),
      ),
      E.right({ name: 'signed_on', type: 'text', maxLength: 8, format: '99-99-99' }),
    );
    assert.deepEqual(problems([{ name: 'signed_on', type: 'text', format: 'AA-99-999' }]), [
      {
        path: 'fields[0].format',
        message: "describes values of 9 characters, more than the PDF field's own limit (8)",
      },
    ]);
  });

  it('makes a text field the date its signer signs on', () => {
    const answer = declarePdfFields(
      [{ name: 'signed_on', type: 'text', maxLength: 10 }],
      [{ name: 'signed_on', type: 'date_signed' }],
    );
    assert.deepEqual(answer, E.right([{ name: 'signed_on', type: 'date_signed' }]));
  });

  it('refuses, at each path, what the PDF’s field cannot be', () => {
    assert.deepEqual(
      problems([
        { name: 'landlord', type: 'text' },
        { name: 'pets', type: 'text' },
        { name: 'term', type: 'choice', options: ['12 months'] },
        { name: 'tenant', type: 'text', max_length: 41 },
        { name: 'tenant', type: 'text', min_length: 41 },
        { name: 'signed_on', type: 'date_signed' },
        { name: 'zip', type: 'checkbox' },
        { name: 'signature', type: 'date' },
      ]),
      [
        { path: 'fields[0].name', message: 'names no form field of the PDF: "landlord"' },
        { path: 'fields[1].type', message: 'must be checkbox: the PDF\'s field "pets" is a checkbox' },
        {
          path: 'fields[2].options',
          message: 'must be left out: the PDF\'s choice "term" has its own options',
        },
        { path: 'fields[3].max_length', message: "must not be more than the PDF field's own limit (40)" },
        { path: 'fields[4].min_length', message: "must not be more than the PDF field's own limit (40)" },
        {
          path: 'fields[5].type',
          message:
            'cannot be date_signed: the PDF\'s field "signed_on" holds at most 8 characters, and a date takes 10',
        },
        {
          path: 'fields[6].type',
          message:
            'must be text, date, date_signed, initials or full_name: the PDF\'s field "zip" is a text field',
        },
        {
          path: 'fields[7].type',
          message: 'must be signature: the PDF\'s field "signature" is a signature field',
        },
      ],
    );
  });

  it('checks each declaration as an HTML template’s, once the PDF’s field fits', () => {
    assert.deepEqual(
      problems([
        { name: 'zip', type: 'text', min_length: 9, max_length: 5 },
        { name: 'start', type: 'date', earliest: 'soon' },
        { name: 'zip', type: 'text' },
      ]),
      [
        { path: 'fields[0].min_length', message: 'must not be more than max_length (5)' },
        {
          path: 'fields[1].earliest',
          message:
            'must be a date as YYYY-MM-DD, like 2030-01-31, "today", or "today+N" or "today-N" days (N at most 3660)',
        },
        { path: 'fields[2].name', message: 'duplicates fields[0].name "zip"' },
      ],
    );
  });
});
