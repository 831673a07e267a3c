import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor } from '@esign/contracts';
import { onPage } from '../../src/domain/answers.js';
import { typedFields, type TypedField } from '../../src/domain/document.js';
import { answeredBy } from '../../src/domain/field-values.js';
import { checkSignature, fieldsToFill, type EnteredAct, type FieldValue } from '../../src/domain/signing.js';
import type { TemplateField } from '../../src/domain/template-fields.js';
import { htmlSpec, sent } from '../support/builders.js';
import { blockOf } from '../support/signer-conditions.js';

// Bob signs first: whether he is married and his tax number. Alice signs after him.
const FIELDS: TemplateField[] = [
  { name: 'married', type: 'checkbox' },
  { name: 'tax_id', type: 'text', maxLength: null, conceal: true },
  { name: 'spouse', type: 'text', maxLength: null, required: true, shownIf: { field: 'married' } },
  { name: 'spouse_works', type: 'checkbox', shownIf: { field: 'married' } },
  { name: 'employer', type: 'text', maxLength: null, required: true, shownIf: { field: 'spouse_works' } },
  {
    name: 'no_tax_id',
    type: 'text',
    maxLength: null,
    required: true,
    shownIf: { field: 'tax_id', equals: false },
  },
];
const BOBS = new Set(['married', 'tax_id']);
const request = sent({
  fields: FIELDS.map((f) => ({
    name: f.name,
    defaultValue: null,
    assignedTo: BOBS.has(f.name) ? 'bob' : 'alice@example.com',
  })),
});
const [alice, bob] = request.signers as [(typeof request.signers)[0], (typeof request.signers)[0]];
const fields = typedFields(request, [htmlSpec({ fields: FIELDS })]);
const mine = fieldsToFill(fields, alice);
const field = (name: string): TypedField => fields.find((f) => f.name === name)!;

const act = (values: Record<string, FieldValue>, kind: 'signed' | 'declined' = 'signed'): EnteredAct => ({
  kind,
  signerId: 'bob',
  at: '2030-01-01T10:00:00.000Z',
  typedName: 'Bob',
  values,
});
const bobSigned = (values: Record<string, FieldValue>) => answeredBy(fields, [act(values)], alice);

/** What Alice's signature keeps, or the fields it is refused for. */
const aliceSigns = (values: Record<string, string>, answered = bobSigned({})) => {
  const signed = checkSignature(mine, {
    values: new Map(mine.flatMap((f) => (values[f.name] === undefined ? [] : [[f.index, values[f.name]!]]))),
    typedName: 'Alice',
    consent: true,
    answered,
  });
  return E.isRight(signed)
    ? signed.right.values
    : signed.left.map(({ target }) => (target._tag === 'Field' ? fields[target.index]!.name : target._tag));
};

describe('requests domain: a condition on a field another signer has answered (ADR 3840)', () => {
  it('reads what the other signer signed with: a field they did not tick is not asked for, nor one under it', () => {
    const answered = bobSigned({ married: false, tax_id: '12 345 678 901' });
    assert.deepEqual(
      answered.map((a) => [a.field.name, a.value]),
      [['married', false]],
      'the concealed tax number is not read',
    );
    assert.deepEqual(
      aliceSigns({ spouse_works: 'on', employer: 'posted anyway', no_tax_id: 'none' }, answered),
      {
        spouse: '',
        spouse_works: false,
        employer: '',
        no_tax_id: 'none',
      },
    );
    const treat = onPage(mine, answered);
    assert.deepEqual(
      mine.map((f) => [f.name, treat(f)._tag]),
      [
        ['spouse', 'Never'],
        ['spouse_works', 'Never'],
        ['employer', 'Never'],
        ['no_tax_id', 'Always'],
      ],
    );
    const tr = translatorFor('en');
    assert.equal(blockOf(tr, field('spouse'), mine, answered), '', 'not on the page');
    assert.equal(blockOf(tr, field('employer'), mine, answered), '', 'nor the field under it');
  });

  it('asks for a field whose condition the other signer met, without saying what they answered', () => {
    const answered = bobSigned({ married: true, tax_id: '' });
    assert.deepEqual(aliceSigns({ no_tax_id: 'none' }, answered), ['spouse']);
    assert.deepEqual(aliceSigns({ spouse: 'Carol', no_tax_id: 'none' }, answered), {
      spouse: 'Carol',
      spouse_works: false,
      employer: '',
      no_tax_id: 'none',
    });
    const tr = translatorFor('en');
    const spouse = blockOf(tr, field('spouse'), mine, answered);
    assert.doesNotMatch(spouse, /shown-if|Married/, 'the field alone, no sentence naming his field');
    assert.match(spouse, /name="f2"/);
    assert.match(
      blockOf(tr, field('employer'), mine, answered),
      /data-shown-if="\[\[&quot;f3&quot;,true\]\]"><p class="hint">Asked only when “Spouse works” is ticked\./,
      'a field under one of hers still follows it',
    );
  });

  it('asks for every field as before while the other signer has not signed, or declined', () => {
    for (const answered of [[], answeredBy(fields, [act({ married: false }, 'declined')], alice)]) {
      assert.deepEqual(answered, []);
      assert.deepEqual(aliceSigns({ spouse_works: 'on' }, answered), ['spouse', 'employer', 'no_tax_id']);
      assert.deepEqual(
        mine.map((f) => onPage(mine, answered)(f)._tag),
        ['Always', 'Always', 'Follow', 'Always'],
      );
    }
  });

  it('never reads the signer’s own recorded values', () => {
    const theirOwn = answeredBy(fields, [{ ...act({ spouse: 'x' }), signerId: 'alice@example.com' }], alice);
    assert.deepEqual(theirOwn, []);
    assert.deepEqual(answeredBy(fields, [act({ married: true })], bob), [], 'Bob reads nothing of his own');
  });

  it('follows the signer’s own condition when another definition’s condition on the other signer does not hold', () => {
    // Two contracts name "spouse": one asks for it when Bob is married, one when Alice ticks "has_partner".
    const second: TemplateField[] = [
      { name: 'has_partner', type: 'checkbox' },
      { name: 'spouse', type: 'text', maxLength: null, shownIf: { field: 'has_partner' } },
    ];
    const both = sent({
      fields: ['married', 'spouse', 'has_partner'].map((name) => ({
        name,
        defaultValue: null,
        assignedTo: name === 'married' ? 'bob' : 'alice@example.com',
      })),
    });
    const typed = typedFields(both, [htmlSpec({ fields: FIELDS.slice(0, 3) }), htmlSpec({ fields: second })]);
    const hers = fieldsToFill(typed, alice);
    const answered = answeredBy(typed, [act({ married: false })], alice);
    const spouse = hers.find((f) => f.name === 'spouse')!;
    const treated = onPage(hers, answered)(spouse);
    assert.equal(treated._tag === 'Follow' && treated.conditions.map((c) => c.field).join(), 'has_partner');
    assert.match(
      blockOf(translatorFor('en'), spouse, hers, answered),
      /Asked only when “Has partner” is ticked\./,
    );
  });
});
