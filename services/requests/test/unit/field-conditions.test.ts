import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor } from '@esign/contracts';
import { fieldInput } from '../../src/adapters/http/signing/field-input.js';
import { shownScript } from '../../src/adapters/http/signing/shown-if.js';
import { typedFields } from '../../src/domain/document.js';
import { declarePdfFields } from '../../src/domain/pdf-field-rules.js';
import { checkSignature, fieldsToFill } from '../../src/domain/signing.js';
import { declareFields, type TemplateField } from '../../src/domain/template-fields.js';
import { fieldOfView, fieldView } from '../../src/domain/field-views.js';
import { htmlSpec, left, right, sent } from '../support/builders.js';
import { blockOf } from '../support/signer-conditions.js';

const FIELDS: TemplateField[] = [
  { name: 'married', type: 'checkbox' },
  { name: 'spouse', type: 'text', maxLength: null, shownIf: { field: 'married' } },
  { name: 'plan', type: 'choice', options: ['Basic', 'Pro'] },
  {
    name: 'seats',
    type: 'text',
    maxLength: null,
    validation: 'numbers_only',
    shownIf: { field: 'plan', equals: 'Pro' },
  },
  { name: 'sla', type: 'checkbox', required: true, shownIf: { field: 'plan', equals: 'Pro' } },
];
const spec = htmlSpec({ fields: FIELDS });
const request = sent({
  fields: FIELDS.map((f) => ({
    name: f.name,
    defaultValue: f.name === 'spouse' ? 'pre-filled' : null,
    assignedTo: 'alice@example.com',
  })),
});
const mine = fieldsToFill(typedFields(request, [spec]), request.signers[0]!);
const signing = (values: Record<string, string>, fields = mine) =>
  checkSignature(fields, {
    values: new Map(
      fields.flatMap((f) => (values[f.name] === undefined ? [] : [[f.index, values[f.name]!]])),
    ),
    typedName: 'Alice',
    consent: true,
  });
const problems = (values: Record<string, string>) => {
  const checked = signing(values);
  return E.isLeft(checked)
    ? checked.left.map(
        (p) =>
          `${mine.find((f) => p.target._tag === 'Field' && f.index === p.target.index)?.name}: ${p.message}`,
      )
    : [];
};

describe('requests domain: fields asked for only when another is ticked or chosen (ADR 3710)', () => {
  it('is declared on a checkbox or a choice of the same template, and kept as the API spells it', () => {
    const declared = right(
      declareFields([
        { name: 'married', type: 'checkbox' },
        { name: 'spouse', type: 'text', shown_if: { field: 'married' } },
        { name: 'plan', type: 'choice', options: ['Basic', 'Pro'] },
        { name: 'start', type: 'date', shown_if: { field: 'plan', equals: 'Pro' } },
      ]),
    );
    const views = declared.map(fieldView);
    assert.deepEqual(views[1], { name: 'spouse', type: 'text', shown_if: { field: 'married' } });
    assert.deepEqual(views[3], { name: 'start', type: 'date', shown_if: { field: 'plan', equals: 'Pro' } });
    assert.deepEqual(views.map(fieldOfView), declared);
  });

  it('refuses a condition naming no field, itself, a field of another kind, one leading back to it or a wrong option', () => {
    assert.deepEqual(
      left(
        declareFields([
          { name: 'married', type: 'checkbox' },
          { name: 'plan', type: 'choice', options: ['Basic', 'Pro'] },
          { name: 'signed_on', type: 'date_signed' },
          { name: 'a', type: 'text', shown_if: { field: 'nope' } },
          { name: 'b', type: 'text', shown_if: { field: 'b' } },
          { name: 'c', type: 'text', shown_if: { field: 'signed_on' } },
          { name: 'd', type: 'checkbox', shown_if: { field: 'married' } },
          { name: 'e', type: 'text', shown_if: { field: 'd' } },
          { name: 'f', type: 'text', shown_if: { field: 'married', equals: 'yes' } },
          { name: 'g', type: 'text', shown_if: { field: 'plan' } },
          { name: 'h', type: 'text', shown_if: { field: 'plan', equals: 'Gold' } },
          { name: 'i', type: 'signature', shown_if: { field: 'married' } },
          { name: 'j', type: 'text', shown_if: { field: 'plan', equals: false } },
          { name: 'k', type: 'checkbox', shown_if: { field: 'l' } },
          { name: 'l', type: 'checkbox', shown_if: { field: 'k' } },
        ]),
      ),
      [
        {
          path: 'fields[11].shown_if',
          message: 'is only allowed on a text, checkbox, choice, date or attachment field',
        },
        { path: 'fields[3].shown_if.field', message: 'names no field of this template: "nope"' },
        { path: 'fields[4].shown_if.field', message: 'must name another field' },
        {
          path: 'fields[5].shown_if.field',
          message:
            'must name a checkbox, a choice, a text or a date field: "signed_on" is a date signed field',
        },
        {
          path: 'fields[8].shown_if.equals',
          message:
            'must be true or false: the checkbox "married" shows it when ticked (true, as when left out) or when not ticked (false)',
        },
        { path: 'fields[9].shown_if.equals', message: 'required: the option of "plan" that shows it' },
        {
          path: 'fields[10].shown_if.equals',
          message: 'must be one of the options of "plan": "Basic", "Pro"',
        },
        {
          path: 'fields[12].shown_if.equals',
          message: 'must be one of the options of "plan": "Basic", "Pro"',
        },
        {
          path: 'fields[13].shown_if.field',
          message: 'must not lead back to "k": "l" is asked for only on a condition of "k"',
        },
        {
          path: 'fields[14].shown_if.field',
          message: 'must not lead back to "l": "k" is asked for only on a condition of "l"',
        },
      ],
    );
  });

  it('names a PDF’s own checkbox or choice, declared or not', () => {
    const own: TemplateField[] = [
      { name: 'married', type: 'checkbox' },
      { name: 'spouse', type: 'text', maxLength: 40 },
      { name: 'plan', type: 'choice', options: ['A', 'B'] },
    ];
    const fields = right(
      declarePdfFields(own, [{ name: 'spouse', type: 'text', shown_if: { field: 'married' } }]),
    );
    assert.deepEqual(fields[1], {
      name: 'spouse',
      type: 'text',
      maxLength: 40,
      shownIf: { field: 'married' },
    });
    assert.deepEqual(
      left(
        declarePdfFields(own, [{ name: 'spouse', type: 'text', shown_if: { field: 'plan', equals: 'C' } }]),
      ),
      [{ path: 'fields[0].shown_if.equals', message: 'must be one of the options of "plan": "A", "B"' }],
    );
  });

  it('asks for a field while its condition holds, with every rule it has', () => {
    assert.deepEqual(problems({ married: 'on', plan: 'Pro', seats: 'ten' }), [
      'spouse: is required',
      'seats: must be digits only, like 12345',
      'sla: must be ticked',
    ]);
    const checked = signing({ married: 'on', spouse: 'Sam', plan: 'Pro', seats: '10', sla: 'on' });
    assert.deepEqual(E.isRight(checked) && checked.right.values, {
      married: true,
      spouse: 'Sam',
      plan: 'Pro',
      seats: '10',
      sla: true,
    });
  });

  it('leaves a field not asked for empty, whatever was posted or pre-filled, and checks nothing of it', () => {
    const checked = signing({ plan: 'Basic', spouse: 'Sam', seats: 'not a number' });
    assert.deepEqual(E.isRight(checked) && checked.right.values, {
      married: false,
      spouse: '',
      plan: 'Basic',
      seats: '',
      sla: false,
    });
  });

  it('asks for a field whose condition names another signer’s field: the page cannot tell their answer', () => {
    const theirs = fieldsToFill(
      typedFields(
        sent({
          fields: FIELDS.map((f) => ({
            name: f.name,
            defaultValue: null,
            assignedTo: f.name === 'married' ? 'bob' : 'alice@example.com',
          })),
        }),
        [spec],
      ),
      request.signers[0]!,
    );
    const checked = signing({ plan: 'Basic' }, theirs);
    assert.deepEqual(E.isLeft(checked) && checked.left.map((p) => p.message), ['is required']);
  });

  it('says on the signer’s page when a field is asked for, with what the script reads', () => {
    const tr = translatorFor('en');
    const spouse = mine.find((f) => f.name === 'spouse')!;
    const html = blockOf(tr, spouse, mine);
    assert.match(
      html,
      /^<div class="shown-if" data-shown-if="\[\[&quot;f0&quot;,true\]\]"><p class="hint">Asked only when “Married” is ticked\.<\/p>/,
    );
    const seats = mine.find((f) => f.name === 'seats')!;
    assert.match(
      blockOf(translatorFor('de'), seats, mine),
      /data-shown-if="\[\[&quot;f2&quot;,&quot;Pro&quot;\]\]"><p class="hint">Nur gefragt, wenn bei „Plan“ „Pro“ gewählt ist\./,
    );
    const married = mine.find((f) => f.name === 'married')!;
    assert.equal(blockOf(tr, married, mine), fieldInput(tr, married, undefined, undefined).value);
    assert.match(
      shownScript('n0nce', { mine, answered: [] }) === ''
        ? ''
        : (shownScript('n0nce', { mine, answered: [] }) as { value: string }).value,
      /^<script nonce="n0nce">/,
    );
    assert.equal(shownScript('n0nce', { mine: mine.filter((f) => f.name === 'married'), answered: [] }), '');
  });
});
