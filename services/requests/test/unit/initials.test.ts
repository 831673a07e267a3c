import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor } from '@esign/contracts';
import { isKnownProblem, problemText } from '../../src/adapters/http/signing/problem-messages.js';
import { typedFields } from '../../src/domain/document.js';
import { fieldView, fieldOfView } from '../../src/domain/field-views.js';
import { declarePdfFields } from '../../src/domain/pdf-field-rules.js';
import { checkSignature, fieldsToFill, initialsFields } from '../../src/domain/signing.js';
import { checkDefaultValue, declareFields } from '../../src/domain/template-fields.js';
import { htmlSpec, left, right, sent } from '../support/builders.js';

const ALICE = 'alice@example.com';
const spec = htmlSpec({
  fields: [
    { name: 'initials_page_1', type: 'initials' },
    { name: 'initials_page_2', type: 'initials' },
    { name: 'note', type: 'text', maxLength: null, required: false },
    { name: 'signature', type: 'signature' },
  ],
});
const request = sent({
  fields: ['initials_page_1', 'initials_page_2', 'note', 'signature'].map((name) => ({
    name,
    defaultValue: null,
    assignedTo: ALICE,
  })),
});
const fields = typedFields(request, [spec]);
const signer = request.signers[0]!;
const signed = (initials: string | undefined) =>
  checkSignature(fieldsToFill(fields, signer), {
    values: new Map(),
    typedName: 'Alice Quinn Carter',
    consent: true,
    initials: { fields: initialsFields(fields, signer), typed: initials },
  });

/** ADR 3900: an initials field, filled with the initials its signer types once. */
describe('requests domain: initials fields', () => {
  it('is declared, kept and shown like a signature: no rule, no pre-filled value, no condition on it', () => {
    const declared = right(declareFields([{ name: 'initials_page_1', type: 'initials' }]));
    assert.deepEqual(declared, [{ name: 'initials_page_1', type: 'initials' }]);
    assert.deepEqual(fieldOfView(fieldView(declared[0]!)), declared[0]);
    assert.deepEqual(left(declareFields([{ name: 'i', type: 'initials', required: true }])), [
      {
        path: 'fields[0].required',
        message: 'is only allowed on a text, checkbox, choice, date or attachment field',
      },
    ]);
    assert.equal(
      checkDefaultValue(declared[0]!, 'AQC'),
      'is not allowed: "initials_page_1" holds its signer\'s initials, typed when they sign',
    );
    const onInitials = left(
      declareFields([
        { name: 'i', type: 'initials' },
        { name: 'why', type: 'text', shown_if: { field: 'i' } },
      ]),
    );
    assert.equal(onInitials[0]?.path, 'fields[1].shown_if.field');
    assert.match(onInitials[0]?.message ?? '', /an initials field/);
  });

  it('is not one of the fields the signer fills in one by one: one input fills them all', () => {
    assert.deepEqual(
      fieldsToFill(fields, signer).map((f) => f.name),
      ['note'],
    );
    assert.deepEqual(
      initialsFields(fields, signer).map((f) => f.name),
      ['initials_page_1', 'initials_page_2'],
    );
    const answer = signed(' A.Q.C. ');
    assert.deepEqual(E.isRight(answer) && answer.right.values, {
      note: '',
      initials_page_1: 'A.Q.C.',
      initials_page_2: 'A.Q.C.',
    });
  });

  it('takes up to four letters of any alphabet with periods or hyphens, and refuses the rest, in words the page translates', () => {
    for (const fit of ['AQC', 'a.q.c.', 'É.-L.', 'ΑΒ', 'J']) assert.equal(E.isRight(signed(fit)), true, fit);
    const problem = (typed: string | undefined) => {
      const answer = signed(typed);
      return E.isLeft(answer) ? answer.left.map((p) => [p.target._tag, p.message]) : [];
    };
    assert.deepEqual(problem(''), [['Initials', 'type your initials']]);
    assert.deepEqual(problem(undefined), [['Initials', 'type your initials']]);
    for (const misfit of ['Alice', 'A Q C', 'A1', 'A..', '-A', 'ABCDE'])
      assert.deepEqual(
        problem(misfit),
        [['Initials', 'must be your initials: up to 4 letters, like J.Q.C.']],
        misfit,
      );
    const de = translatorFor('de');
    for (const wording of ['type your initials', 'must be your initials: up to 4 letters, like J.Q.C.']) {
      assert.equal(isKnownProblem(wording), true);
      assert.notEqual(problemText(de, wording), wording);
    }
  });

  it('asks nothing of a signer without initials fields', () => {
    const plain = typedFields(sent({ fields: [{ name: 'note', defaultValue: null, assignedTo: ALICE }] }), [
      htmlSpec({ fields: [{ name: 'note', type: 'text', maxLength: null, required: false }] }),
    ]);
    assert.deepEqual(initialsFields(plain, signer), []);
  });

  it('makes a PDF’s text field an initials field when it holds initials', () => {
    const own = [
      { name: 'init_1', type: 'text', maxLength: null },
      { name: 'init_2', type: 'text', maxLength: 3 },
    ] as const;
    assert.deepEqual(
      declarePdfFields(own, [{ name: 'init_1', type: 'initials' }]),
      E.right([{ name: 'init_1', type: 'initials' }, own[1]]),
    );
    assert.deepEqual(left(declarePdfFields(own, [{ name: 'init_2', type: 'initials' }])), [
      {
        path: 'fields[0].type',
        message:
          'cannot be initials: the PDF\'s field "init_2" holds at most 3 characters, and initials take up to 12',
      },
    ]);
  });
});
