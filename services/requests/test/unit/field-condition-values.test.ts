import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor, type Locale } from '@esign/contracts';
import { declareFields, type TemplateField } from '../../src/domain/template-fields.js';
import { fieldView } from '../../src/domain/field-views.js';
import { left, right } from '../support/builders.js';
import { blockOf, refused, signerFields, signing } from '../support/signer-conditions.js';

/** The values a condition compares with besides one option: a box not ticked, several options, a field filled in or not. */
describe('requests domain: a field asked for while a box is not ticked, a choice has one of several options, or a field is filled in', () => {
  it('asks for a field while a box is not ticked (ADR 3760), and says so on the page', () => {
    const fields: TemplateField[] = [
      { name: 'retired', type: 'checkbox' },
      { name: 'employer', type: 'text', maxLength: null, shownIf: { field: 'retired', equals: false } },
      { name: 'pension', type: 'text', maxLength: null, shownIf: { field: 'retired', equals: true } },
    ];
    assert.deepEqual(
      right(
        declareFields([
          { name: 'retired', type: 'checkbox' },
          { name: 'employer', type: 'text', shown_if: { field: 'retired', equals: false } },
          { name: 'pension', type: 'text', shown_if: { field: 'retired', equals: true } },
        ]),
      ).map(fieldView)[1],
      { name: 'employer', type: 'text', shown_if: { field: 'retired', equals: false } },
    );
    const own = signerFields(fields);
    const working = signing({ pension: 'posted anyway' }, own);
    assert.deepEqual(E.isLeft(working) && working.left.map((p) => p.message), ['is required']);
    const done = signing({ retired: 'on', employer: 'posted anyway', pension: 'State' }, own);
    assert.deepEqual(E.isRight(done) && done.right.values, { retired: true, employer: '', pension: 'State' });
    const tr = translatorFor('fr');
    const employer = own.find((f) => f.name === 'employer')!;
    assert.match(
      blockOf(tr, employer, own),
      /^<div class="shown-if" data-shown-if="\[\[&quot;f0&quot;,false\]\]"><p class="hint">Demandé seulement si « Retired » n’est pas coché\.<\/p>/,
    );
  });

  it('asks for a field while a choice has any of several options (ADR 3790)', () => {
    const fields: TemplateField[] = [
      { name: 'plan', type: 'choice', options: ['Basic', 'Pro', 'Team'] },
      { name: 'seats', type: 'text', maxLength: null, shownIf: { field: 'plan', equals: ['Pro', 'Team'] } },
    ];
    assert.deepEqual(
      left(
        declareFields([
          { name: 'plan', type: 'choice', options: ['Basic', 'Pro', 'Team'] },
          { name: 'a', type: 'text', shown_if: { field: 'plan', equals: ['Pro', 'Gold'] } },
          { name: 'b', type: 'text', shown_if: { field: 'plan', equals: [] } },
          { name: 'ok', type: 'text', shown_if: { field: 'plan', equals: ['Pro', 'Team'] } },
          { name: 'box', type: 'checkbox' },
          { name: 'c', type: 'text', shown_if: { field: 'box', equals: ['Pro'] } },
        ]),
      ),
      [
        {
          path: 'fields[1].shown_if.equals[1]',
          message: 'must be one of the options of "plan": "Basic", "Pro", "Team"',
        },
        { path: 'fields[2].shown_if.equals', message: 'must list at least one option of "plan"' },
        {
          path: 'fields[5].shown_if.equals',
          message:
            'must be true or false: the checkbox "box" shows it when ticked (true, as when left out) or when not ticked (false)',
        },
      ],
    );
    const own = signerFields(fields);
    for (const plan of ['Pro', 'Team']) {
      const asked = signing({ plan }, own);
      assert.deepEqual(E.isLeft(asked) && asked.left.map((p) => p.message), ['is required'], plan);
    }
    const basic = signing({ plan: 'Basic', seats: 'posted anyway' }, own);
    assert.deepEqual(E.isRight(basic) && basic.right.values, { plan: 'Basic', seats: '' });
    const seats = own.find((f) => f.name === 'seats')!;
    const block = (locale: Locale) => blockOf(translatorFor(locale), seats, own);
    assert.match(
      block('en'),
      /^<div class="shown-if" data-shown-if="\[\[&quot;f0&quot;,\[&quot;Pro&quot;,&quot;Team&quot;\]\]\]"><p class="hint">Asked only when “Plan” is Pro or Team\.<\/p>/,
    );
    assert.match(block('de'), /Nur gefragt, wenn bei „Plan“ Pro oder Team gewählt ist\./);
  });

  it('asks for a field while a text or date field is filled in, or left empty (ADR 3800)', () => {
    assert.deepEqual(
      left(
        declareFields([
          { name: 'company', type: 'text', required: false },
          { name: 'moved_on', type: 'date', required: false },
          { name: 'vat', type: 'text', shown_if: { field: 'company', equals: 'ACME' } },
          { name: 'ok', type: 'text', shown_if: { field: 'moved_on', equals: false } },
          { name: 'old', type: 'text', shown_if: { field: 'moved_on', equals: ['x'] } },
        ]),
      ),
      [
        {
          path: 'fields[2].shown_if.equals',
          message:
            'must be true or false: the text field "company" shows it when filled in (true, as when left out) or when left empty (false)',
        },
        {
          path: 'fields[4].shown_if.equals',
          message:
            'must be true or false: the date field "moved_on" shows it when filled in (true, as when left out) or when left empty (false)',
        },
      ],
    );
    const fields: TemplateField[] = [
      { name: 'company', type: 'text', maxLength: null, required: false },
      { name: 'vat', type: 'text', maxLength: null, shownIf: { field: 'company' } },
      { name: 'why_none', type: 'text', maxLength: null, shownIf: { field: 'company', equals: false } },
      { name: 'moved_on', type: 'date', required: false },
      { name: 'old_address', type: 'text', maxLength: null, shownIf: { field: 'moved_on', equals: true } },
    ];
    const own = signerFields(fields);
    assert.deepEqual(refused({ company: 'ACME', why_none: 'posted anyway', moved_on: '2026-01-31' }, own), [
      'vat',
      'old_address',
    ]);
    // Blank is empty: spaces alone do not show a field asked for when filled in.
    const blank = signing({ company: '   ', vat: 'posted anyway', why_none: 'Sole trader' }, own);
    assert.deepEqual(E.isRight(blank) && blank.right.values, {
      company: '',
      vat: '',
      why_none: 'Sole trader',
      moved_on: '',
      old_address: '',
    });
    const tr = translatorFor('de');
    const sentence = (name: string) => {
      const field = own.find((f) => f.name === name)!;
      return blockOf(tr, field, own);
    };
    assert.match(
      sentence('vat'),
      /data-shown-if="\[\[&quot;f0&quot;,true\]\]"><p class="hint">Nur gefragt, wenn „Company“ ausgefüllt ist\.<\/p>/,
    );
    assert.match(sentence('why_none'), /Nur gefragt, wenn „Company“ leer bleibt\./);
    assert.match(sentence('old_address'), /Nur gefragt, wenn „Moved on“ ausgefüllt ist\./);
  });
});
