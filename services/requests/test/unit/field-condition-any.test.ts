import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor } from '@esign/contracts';
import { fieldOfView, fieldView } from '../../src/domain/field-views.js';
import { declarePdfFields } from '../../src/domain/pdf-field-rules.js';
import { declareFields, type TemplateField } from '../../src/domain/template-fields.js';
import { left, right } from '../support/builders.js';
import { blockOf, refused, signerFields, signing } from '../support/signer-conditions.js';

const FIELDS: TemplateField[] = [
  { name: 'married', type: 'checkbox' },
  { name: 'plan', type: 'choice', options: ['Basic', 'Pro', 'Team'], required: false },
  { name: 'company', type: 'text', maxLength: null, required: false },
  {
    name: 'contact',
    type: 'text',
    maxLength: null,
    shownIf: [{ field: 'married' }, { field: 'plan', equals: ['Pro', 'Team'] }, { field: 'company' }],
  },
];

describe('requests domain: a field asked for while any of several conditions holds (ADR 3850)', () => {
  it('is declared as a list of conditions on different fields, and kept as the API spells it', () => {
    const declared = right(
      declareFields([
        { name: 'married', type: 'checkbox' },
        { name: 'plan', type: 'choice', options: ['Basic', 'Pro'] },
        { name: 'contact', type: 'text', shown_if: [{ field: 'married' }, { field: 'plan', equals: 'Pro' }] },
        { name: 'note', type: 'text', shown_if: [{ field: 'married', equals: false }] },
      ]),
    );
    const views = declared.map(fieldView);
    assert.deepEqual(views[2]!.shown_if, [{ field: 'married' }, { field: 'plan', equals: 'Pro' }]);
    assert.deepEqual(views[3]!.shown_if, [{ field: 'married', equals: false }], 'a list of one stays a list');
    assert.deepEqual(views.map(fieldOfView), declared);
  });

  it('refuses each condition of the list at its own path, a field named twice, and a circle through any of them', () => {
    assert.deepEqual(
      left(
        declareFields([
          { name: 'married', type: 'checkbox' },
          { name: 'plan', type: 'choice', options: ['Basic', 'Pro'] },
          {
            name: 'a',
            type: 'text',
            shown_if: [{ field: 'married' }, { field: 'nope' }, { field: 'plan', equals: 'Gold' }],
          },
          {
            name: 'b',
            type: 'text',
            shown_if: [
              { field: 'plan', equals: 'Pro' },
              { field: 'plan', equals: 'Basic' },
            ],
          },
          { name: 'c', type: 'checkbox', shown_if: [{ field: 'married' }, { field: 'd' }] },
          { name: 'd', type: 'checkbox', shown_if: { field: 'c' } },
        ]),
      ),
      [
        { path: 'fields[2].shown_if[1].field', message: 'names no field of this template: "nope"' },
        {
          path: 'fields[2].shown_if[2].equals',
          message: 'must be one of the options of "plan": "Basic", "Pro"',
        },
        {
          path: 'fields[3].shown_if[1].field',
          message: `names "plan" again (as shown_if[0]): list a choice's options in one "equals"`,
        },
        {
          path: 'fields[4].shown_if[1].field',
          message: 'must not lead back to "c": "d" is asked for only on a condition of "c"',
        },
        {
          path: 'fields[5].shown_if.field',
          message: 'must not lead back to "d": "c" is asked for only on a condition of "d"',
        },
      ],
    );
  });

  it('takes a list in a PDF’s rules too, naming the PDF’s own fields', () => {
    const own: TemplateField[] = [
      { name: 'married', type: 'checkbox' },
      { name: 'plan', type: 'choice', options: ['A', 'B'] },
      { name: 'spouse', type: 'text', maxLength: 40 },
    ];
    const conditions = [{ field: 'married' }, { field: 'plan', equals: 'B' }];
    const fields = right(declarePdfFields(own, [{ name: 'spouse', type: 'text', shown_if: conditions }]));
    assert.deepEqual(fieldView(fields[2]!).shown_if, conditions);
  });

  it('asks for the field while any condition holds, and keeps it empty while none does', () => {
    const own = signerFields(FIELDS);
    assert.deepEqual(refused({ married: 'on' }, own), ['contact']);
    assert.deepEqual(refused({ plan: 'Team' }, own), ['contact']);
    assert.deepEqual(refused({ company: 'Acme' }, own), ['contact']);
    const none = signing({ plan: 'Basic', contact: 'posted anyway' }, own);
    assert.deepEqual(E.isRight(none) && none.right.values, {
      married: false,
      plan: 'Basic',
      company: '',
      contact: '',
    });
  });

  it('says every condition in one sentence on the signer’s page, in their language', () => {
    const own = signerFields(FIELDS);
    const contact = own.find((f) => f.name === 'contact')!;
    assert.match(
      blockOf(translatorFor('en'), contact, own),
      /^<div class="shown-if" data-shown-if="\[\[&quot;f0&quot;,true\],\[&quot;f1&quot;,\[&quot;Pro&quot;,&quot;Team&quot;\]\],\[&quot;f2&quot;,true\]\]"><p class="hint">Asked only when “Married” is ticked, “Plan” is Pro or Team, or “Company” is filled in\.<\/p>/,
    );
    assert.match(
      blockOf(translatorFor('de'), contact, own),
      /Nur gefragt, wenn „Married“ angekreuzt ist, bei „Plan“ Pro oder Team gewählt ist oder „Company“ ausgefüllt ist\./,
    );
  });

  it('says a condition two contracts share once', () => {
    const spouse: TemplateField = {
      name: 'spouse',
      type: 'text',
      maxLength: null,
      shownIf: { field: 'married' },
    };
    const own = signerFields([FIELDS[0]!, spouse], [FIELDS[0]!, spouse]);
    const html = blockOf(
      translatorFor('en'),
      own.find((f) => f.name === 'spouse')!,
      own,
    );
    assert.match(html, /<p class="hint">Asked only when “Married” is ticked\.<\/p>/);
  });
});
