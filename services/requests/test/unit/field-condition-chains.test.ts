import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor } from '@esign/contracts';
import { declareFields, type TemplateField } from '../../src/domain/template-fields.js';
import { left, right } from '../support/builders.js';
import { blockOf, refused, signerFields, signing } from '../support/signer-conditions.js';

/** ADR 3810: a condition may name a field asked for on a condition of its own. */
describe('requests domain: a field whose condition names a field asked for on a condition of its own', () => {
  const FIELDS: TemplateField[] = [
    { name: 'married', type: 'checkbox' },
    { name: 'spouse_works', type: 'checkbox', shownIf: { field: 'married' } },
    { name: 'spouse_employer', type: 'text', maxLength: null, shownIf: { field: 'spouse_works' } },
    {
      name: 'spouse_why_not',
      type: 'text',
      maxLength: null,
      shownIf: { field: 'spouse_works', equals: false },
    },
  ];

  it('is declared when the conditions do not lead back to the field, and refused at the field that closes a circle', () => {
    assert.equal(
      right(
        declareFields([
          { name: 'married', type: 'checkbox' },
          { name: 'spouse_works', type: 'checkbox', shown_if: { field: 'married' } },
          { name: 'spouse_employer', type: 'text', shown_if: { field: 'spouse_works' } },
        ]),
      ).length,
      3,
    );
    assert.deepEqual(
      left(
        declareFields([
          { name: 'a', type: 'text', shown_if: { field: 'b' } },
          { name: 'b', type: 'text', shown_if: { field: 'c' } },
          { name: 'c', type: 'checkbox', shown_if: { field: 'a' } },
          { name: 'd', type: 'text', shown_if: { field: 'a' } },
        ]),
      ),
      [
        {
          path: 'fields[0].shown_if.field',
          message:
            'must not lead back to "a": "b" is asked for only on a condition of "c", and "c" on one of "a"',
        },
        {
          path: 'fields[1].shown_if.field',
          message:
            'must not lead back to "b": "c" is asked for only on a condition of "a", and "a" on one of "b"',
        },
        {
          path: 'fields[2].shown_if.field',
          message:
            'must not lead back to "c": "a" is asked for only on a condition of "b", and "b" on one of "c"',
        },
      ],
    );
  });

  it('asks for a field only while the field its condition names is asked for itself, whatever was posted for that one', () => {
    const own = signerFields(FIELDS);
    assert.deepEqual(refused({ married: 'on', spouse_works: 'on' }, own), ['spouse_employer']);
    assert.deepEqual(refused({ married: 'on' }, own), ['spouse_why_not']);
    // Not married: the spouse's box is not asked for, so neither field under it is, even the
    // one asked for while it is not ticked, and a tick posted for it anyway is dropped.
    const single = signing({ spouse_works: 'on', spouse_employer: 'posted anyway' }, own);
    assert.deepEqual(E.isRight(single) && single.right.values, {
      married: false,
      spouse_works: false,
      spouse_employer: '',
      spouse_why_not: '',
    });
  });

  it('reads two contracts whose conditions lead back to each other without looping', () => {
    const own = signerFields(
      [
        { name: 'a', type: 'text', maxLength: null, shownIf: { field: 'b' } },
        { name: 'b', type: 'checkbox', shownIf: { field: 'c' } },
        { name: 'c', type: 'checkbox' },
      ],
      [
        { name: 'b', type: 'checkbox', shownIf: { field: 'a' } },
        { name: 'a', type: 'text', maxLength: null, shownIf: { field: 'd' } },
        { name: 'd', type: 'checkbox' },
      ],
    );
    assert.deepEqual(refused({}, own), []);
    // The circle holds nothing up by itself: b is asked for while c is ticked (or a filled in).
    assert.deepEqual(refused({ b: 'on' }, own), []);
    assert.deepEqual(refused({ c: 'on', b: 'on' }, own), ['a']);
  });

  it('names the field its condition reads on the signer’s page, in their language', () => {
    const own = signerFields(FIELDS);
    const employer = own.find((f) => f.name === 'spouse_employer')!;
    const tr = translatorFor('es');
    assert.match(
      blockOf(tr, employer, own),
      /data-shown-if="\[\[&quot;f1&quot;,true\]\]"><p class="hint">Solo se pide si «Spouse works» está marcado\.<\/p>/,
    );
  });
});
