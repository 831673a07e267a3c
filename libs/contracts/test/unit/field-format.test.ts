import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import {
  FieldFormat,
  fitsFormat,
  formatIsNumeric,
  formatLength,
  formatPlaceholders,
} from '../../src/field-format.js';
import { decode } from '../../src/decode.js';

describe('contracts: a text field’s format (ADR 3870)', () => {
  it('takes a value written character by character as the format says, and nothing else', () => {
    const cases: Record<string, [readonly string[], readonly string[]]> = {
      'AA-9999': [
        ['AB-1234', 'ab-1234', 'Çé-0000'],
        ['AB1234', 'AB-123', 'AB-12345', 'A1-1234', 'AB 1234', 'AB-１２３４', ''],
      ],
      '999-99-9999': [['123-45-6789'], ['123456789', '123-45-678a', '١٢٣-٤٥-٦٧٨٩']],
      '***': [
        ['a1Z', '999', 'ßé9'],
        ['a-1', 'ab', 'abcd'],
      ],
      // A letter typed as it is may be in either case; a backslash makes 9, A or * one.
      'INV-9999': [['INV-0042', 'inv-0042'], ['INX-0042']],
      'A\\A9\\9': [
        ['xA59', 'xa59'],
        ['xb59', 'xA55'],
      ],
      '(999) 999-9999': [['(555) 014-3000'], ['555-014-3000']],
    };
    for (const [format, [fit, misfit]] of Object.entries(cases)) {
      for (const value of fit) assert.equal(fitsFormat(format, value), true, `${format} takes ${value}`);
      for (const value of misfit)
        assert.equal(fitsFormat(format, value), false, `${format} refuses ${value}`);
    }
  });

  it('says how long its values are, what fills them and whether a number pad types them', () => {
    assert.equal(formatLength('AA-9999'), 7);
    assert.equal(formatLength('A\\A9\\9'), 4);
    assert.deepEqual(formatPlaceholders('*-A-9-A'), ['digit', 'letter', 'either']);
    assert.deepEqual(formatPlaceholders('999\\A'), ['digit']);
    assert.equal(formatIsNumeric('(999) 999-9999'), true);
    assert.equal(formatIsNumeric('999\\A'), false, 'a letter typed as it is needs letters');
    assert.equal(formatIsNumeric('AA-9999'), false);
  });

  it('refuses what is not a format, saying why', () => {
    const refused = (value: unknown) => {
      const decoded = decode(FieldFormat)(value);
      return E.isLeft(decoded) ? decoded.left.map((e) => e.message) : [];
    };
    assert.deepEqual(refused('AA-9999'), []);
    assert.deepEqual(refused('---'), [
      'must hold at least one 9 (a digit), A (a letter) or * (either), like AA-9999',
    ]);
    assert.deepEqual(refused(''), [
      'must hold at least one 9 (a digit), A (a letter) or * (either), like AA-9999',
    ]);
    assert.deepEqual(refused('\\9\\A'), [
      'must hold at least one 9 (a digit), A (a letter) or * (either), like AA-9999',
    ]);
    assert.deepEqual(refused('999\\'), [
      'must not end with "\\": it makes the character after it typed as it is',
    ]);
    assert.deepEqual(refused('99\n99'), ['must not hold control characters or line breaks']);
    assert.deepEqual(refused('9'.repeat(51)), ['must be at most 50 characters']);
    assert.equal(refused(42).length, 1, 'a number is not a format');
  });
});
