import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor } from '@esign/contracts';
import { fieldInput } from '../../src/adapters/http/signing/field-input.js';
import { typedFields } from '../../src/domain/document.js';
import { checkSignature, executedValue, fieldsToFill, type SignerAct } from '../../src/domain/signing.js';
import { declareFields, isRequired, type TemplateField } from '../../src/domain/template-fields.js';
import { fieldView } from '../../src/domain/field-views.js';
import { htmlSpec, left, right, sent } from '../support/builders.js';

const FIELDS: TemplateField[] = [
  { name: 'note', type: 'text', maxLength: null, required: false },
  { name: 'terms', type: 'checkbox', required: true },
  { name: 'newsletter', type: 'checkbox' },
  { name: 'start_on', type: 'date', required: false },
  { name: 'plan', type: 'choice', options: ['Basic', 'Pro'], required: false },
  { name: 'full_name', type: 'text', maxLength: null },
];
const spec = htmlSpec({ fields: [...FIELDS, { name: 'signature', type: 'signature' }] });
const request = sent({
  fields: [...FIELDS, { name: 'signature' }].map((f) => ({
    name: f.name,
    defaultValue: f.name === 'note' ? 'pre-filled' : null,
    assignedTo: 'alice@example.com',
  })),
});
const mine = fieldsToFill(typedFields(request, [spec]), request.signers[0]!);
/** The signer's form: values by field name, the rest left empty. */
const signing = (values: Record<string, string>) =>
  checkSignature(mine, {
    values: new Map(mine.flatMap((f) => (values[f.name] === undefined ? [] : [[f.index, values[f.name]!]]))),
    typedName: 'Alice',
    consent: true,
  });
const problems = (values: Record<string, string>) => {
  const checked = signing(values);
  return E.isLeft(checked)
    ? checked.left.map((p) => {
        const index = p.target._tag === 'Field' ? p.target.index : -1;
        return `${mine.find((f) => f.index === index)?.name}: ${p.message}`;
      })
    : [];
};

describe('requests domain: optional fields and checkboxes that must be ticked (ADR 3610)', () => {
  it('is declared on fields a signer fills in, and kept only where it differs from the type’s rule', () => {
    const declared = right(
      declareFields([
        { name: 'note', type: 'text', required: false },
        { name: 'name', type: 'text', required: true },
        { name: 'terms', type: 'checkbox', required: true },
        { name: 'ok', type: 'checkbox', required: false },
        { name: 'on', type: 'date', required: false },
      ]),
    );
    assert.deepEqual(declared.map(fieldView), [
      { name: 'note', type: 'text', required: false },
      { name: 'name', type: 'text' },
      { name: 'terms', type: 'checkbox', required: true },
      { name: 'ok', type: 'checkbox' },
      { name: 'on', type: 'date', required: false },
    ]);
    assert.deepEqual(declared.map(isRequired), [false, true, true, false, false]);
    assert.deepEqual(
      left(
        declareFields([
          { name: 'signature', type: 'signature', required: false },
          { name: 'signed_on', type: 'date_signed', required: true },
        ]),
      ),
      [
        {
          path: 'fields[0].required',
          message: 'is only allowed on a text, checkbox, choice, date or attachment field',
        },
        {
          path: 'fields[1].required',
          message: 'is only allowed on a text, checkbox, choice, date or attachment field',
        },
      ],
    );
  });

  it('lets the signer leave optional fields empty, kept empty rather than pre-filled', () => {
    const checked = signing({ terms: 'on', full_name: 'Alice Example' });
    assert.deepEqual(
      checked,
      E.right({
        values: {
          note: '',
          terms: true,
          newsletter: false,
          start_on: '',
          plan: '',
          full_name: 'Alice Example',
        },
        typedName: 'Alice',
      }),
    );
    const note = mine.find((f) => f.name === 'note')!;
    const act = {
      kind: 'signed',
      signerId: 'alice@example.com',
      at: '2030-01-01T00:00:00Z',
      values: E.isRight(checked) ? checked.right.values : {},
    } as unknown as SignerAct;
    assert.equal(executedValue(note, [act]), '', 'the pre-filled value the signer cleared is not signed');
  });

  it('offers an optional choice’s radios a "No answer", chosen until another is', () => {
    const plan = mine.find((f) => f.name === 'plan')!;
    const en = translatorFor('en');
    const shown = String(fieldInput(en, plan, undefined, undefined));
    assert.match(shown, /<legend>Plan<\/legend>/);
    assert.match(
      shown,
      /<input type="radio" id="f-4-none" name="f4" value="" checked><label for="f-4-none">No answer<\/label>/,
    );
    const chosen = { values: new Map([[plan.index, 'Pro']]), typedName: '', consent: false, reason: '' };
    assert.match(String(fieldInput(en, plan, chosen, undefined)), /value="Pro" checked>[\s\S]*value="">/);
    const required = {
      ...plan,
      definitions: [{ name: 'plan', type: 'choice', options: ['Basic', 'Pro'] }],
    } as const;
    assert.doesNotMatch(String(fieldInput(en, required, undefined, undefined)), /No answer/);
  });

  it('refuses a checkbox that must be ticked, and a required field left empty', () => {
    assert.deepEqual(problems({}), ['terms: must be ticked', 'full_name: is required']);
  });

  it('requires a field that any contract naming it requires', () => {
    const optional = htmlSpec({
      id: 40,
      name: 'Optional',
      fields: [{ name: 'full_name', type: 'text', maxLength: null, required: false }],
    });
    const both = typedFields(
      sent({
        fields: [{ name: 'full_name', defaultValue: null, assignedTo: 'alice@example.com' }],
      }),
      [optional, spec],
    );
    const field = both.find((f) => f.name === 'full_name')!;
    assert.equal(field.definitions.length, 2);
    const left = checkSignature([field], { values: new Map(), typedName: 'Alice', consent: true });
    assert.ok(E.isLeft(left), 'one contract’s requirement holds though the other’s field is optional');
    assert.deepEqual(
      left.left.map((p) => p.message),
      ['is required'],
    );
    const limited = htmlSpec({
      id: 41,
      name: 'Short',
      fields: [{ name: 'full_name', type: 'text', maxLength: 20, required: false }],
    });
    const [shared] = typedFields(
      sent({ fields: [{ name: 'full_name', defaultValue: null, assignedTo: 'alice@example.com' }] }),
      [spec, limited],
    ).filter((f) => f.name === 'full_name');
    const input = String(fieldInput(translatorFor('en'), shared!, undefined, undefined));
    assert.match(input, /Full name <span class="req">\(required\)<\/span>/);
    assert.match(input, /maxlength="20" required>/, 'the page’s limit is the smallest, as the check’s is');
  });
});
