import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { translatorFor } from '@esign/contracts';
import { isKnownProblem, problemText } from '../../src/adapters/http/signing/problem-messages.js';
import { typedFields } from '../../src/domain/document.js';
import { checkSignature, fieldsToFill } from '../../src/domain/signing.js';
import {
  checkDefaultValue,
  clashProblem,
  declareFields,
  fitsValidation,
  typeClash,
  VALIDATION_PROBLEM,
} from '../../src/domain/contract-template.js';
import { fieldView } from '../../src/domain/field-views.js';
import { htmlSpec, left, right, sent } from '../support/builders.js';

const ZIP = { name: 'zip', type: 'text', maxLength: null, validation: 'zip_code' } as const;
const spec = htmlSpec({ fields: [ZIP, { name: 'signature', type: 'signature' }] });
const request = sent({
  fields: [
    { name: 'zip', defaultValue: null, assignedTo: 'alice@example.com' },
    { name: 'signature', defaultValue: null, assignedTo: 'alice@example.com' },
  ],
});
const problems = (value: string) => {
  const mine = fieldsToFill(typedFields(request, [spec]), request.signers[0]!);
  const checked = checkSignature(mine, { values: new Map([[0, value]]), typedName: 'Alice', consent: true });
  return E.isLeft(checked) ? checked.left.map((p) => p.message) : checked.right.values;
};

describe('requests domain: a text field that asks for a kind of value (ADR 3600)', () => {
  it('knows each kind of value from anything else', () => {
    const cases = {
      email_address: [
        ['name@example.com', 'a.b+c@mail.example.org'],
        ['name@', 'name example.com', ''],
      ],
      numbers_only: [
        ['12345', '007'],
        ['12 345', '12.5', '-1', '١٢٣', ''],
      ],
      phone_number: [
        ['555-014-3000', '555.014.3000', '555 014 3000', '(555) 014-3000', '5550143000'],
        ['555-014-300', '+1 555 014 3000', '555-0143-000', 'call me', ''],
      ],
      zip_code: [
        ['12345', '12345-6789'],
        ['1234', '123456', '12345-678', 'AB1 2CD', ''],
      ],
      // ADR 3680.
      letters_only: [
        ["Anne-Marie O'Neil", 'Zoë', 'José Núñez', 'Łukasz', 'Οδυσσέας', 'D’Arcy'],
        ['R2D2', 'Anne  Marie', '-Anne', 'Anne-', 'Ann.', 'Ann, Bob', ''],
      ],
      ssn: [
        ['123-45-6789', '123456789', '665-01-0001'],
        [
          '000-12-3456',
          '666-12-3456',
          '900-12-3456',
          '123-00-4567',
          '123-45-0000',
          '123-456789',
          '12-345-6789',
          '',
        ],
      ],
      ein: [
        ['12-3456789', '123456789'],
        ['00-1234567', '1-23456789', '12-345678', '12 3456789', ''],
      ],
      bank_routing_number: [
        ['021000021', '011000015', '122105155'],
        ['021000022', '02100002', '0210000210', '021-000-021', ''],
      ],
      // ADR 3690.
      uk_postcode: [
        ['SW1A 1AA', 'sw1a 1aa', 'M1 1AE', 'B33 8TH', 'CR2 6XH', 'DN55 1PT', 'EC1A1BB', 'GIR 0AA'],
        ['SW1A  1AA', 'QW1A 1AA', 'SW1A 1CA', '12345', 'SW1A', ''],
      ],
      ca_postal_code: [
        ['K1A 0B1', 'k1a0b1', 'H3Z 2Y7'],
        ['D1A 0B1', 'K1A 0D1', 'K1A-0B1', '12345', 'K1A', ''],
      ],
      iban: [
        [
          'DE89 3704 0044 0532 0130 00',
          'DE89370400440532013000',
          'GB82 WEST 1234 5698 7654 32',
          'gb82west12345698765432',
        ],
        [
          'DE88 3704 0044 0532 0130 00',
          'DE89 3704 0044 0532 0130 0',
          'DE89  3704 0044 0532 0130 00',
          '89DE370400440532013000',
          '',
          // ADR 3770: check digits that hold, on a number its country does not have.
          'DE86 3704 0044 0532 0130', // 20 characters: a German IBAN has 22
          'XX46 3704 0044 0532 0130 00', // no such country in the registry
          'GB25 1234 1234 5698 7654 32', // a British IBAN's bank code is four letters
        ],
      ],
      // ADR 3830: a European VAT number, its country's prefix first, its check digits holding.
      vat_number: [
        [
          'DE136695976',
          'de 136 695 976',
          'DE-136.695.976',
          'ATU13585627',
          'FR40303265045',
          'EL094259216', // Greece's prefix
          'CHE-116.281.710', // Switzerland's
          'GB980780684',
          'ESX2482300W',
        ],
        [
          'DE136695977', // the check digit does not hold
          'DE13669597', // a digit short
          '136695976', // no country
          'GR094259216', // Greece's numbers are EL
          'XX136695976',
          'DE 136  695 976',
          'DE136695976!',
          '',
        ],
      ],
    } as const;
    for (const [validation, [good, bad]] of Object.entries(cases)) {
      for (const value of good)
        assert.equal(fitsValidation(validation as keyof typeof cases, value), true, `${validation} ${value}`);
      for (const value of bad)
        assert.equal(
          fitsValidation(validation as keyof typeof cases, value),
          false,
          `${validation} ${value}`,
        );
    }
  });

  it('is declared on a text field only, kept, and shown as declared', () => {
    assert.deepEqual(right(declareFields([{ name: 'zip', type: 'text', validation: 'zip_code' }])), [ZIP]);
    assert.deepEqual(left(declareFields([{ name: 'n', type: 'checkbox', validation: 'numbers_only' }])), [
      { path: 'fields[0].validation', message: 'is only allowed on a text field' },
    ]);
    assert.deepEqual(fieldView(ZIP), { name: 'zip', type: 'text', validation: 'zip_code' });
    assert.deepEqual(fieldView({ name: 'n', type: 'text', maxLength: 9 }), {
      name: 'n',
      type: 'text',
      max_length: 9,
    });
  });

  it('refuses a pre-filled value of another kind, naming what the field asks for', () => {
    assert.equal(checkDefaultValue(ZIP, '12345-6789'), undefined);
    assert.equal(
      checkDefaultValue(ZIP, 'SW1A 1AA'),
      'must be a ZIP code, like 12345 or 12345-6789: text field "zip" asks for zip_code',
    );
  });

  it('refuses a signer’s value of another kind, in words the signing page translates', () => {
    assert.deepEqual(problems(' 12345 '), { zip: '12345' });
    assert.deepEqual(problems('1234'), ['must be a ZIP code, like 12345 or 12345-6789']);
    assert.deepEqual(problems(''), ['is required']);
    const fr = translatorFor('fr');
    for (const [validation, wording] of Object.entries(VALIDATION_PROBLEM)) {
      assert.equal(isKnownProblem(wording), true, wording);
      assert.notEqual(problemText(fr, wording), wording, wording);
      // Each example the wording gives is a value the kind takes.
      const example = /like (.+?)(?: or |$)/.exec(wording)![1]!;
      assert.equal(fitsValidation(validation as keyof typeof VALIDATION_PROBLEM, example), true, wording);
    }
  });

  it('checks a name shared by contracts against each that asks, and refuses two that differ', () => {
    const plain = htmlSpec({
      id: 30,
      name: 'Plain',
      fields: [{ name: 'zip', type: 'text', maxLength: null }],
    });
    const asks = (id: number, validation: 'zip_code' | 'numbers_only') =>
      htmlSpec({
        id,
        name: `Asks ${id}`,
        fields: [{ name: 'zip', type: 'text', maxLength: null, validation }],
      });
    const dated = htmlSpec({ id: 33, name: 'Dated', fields: [{ name: 'zip', type: 'date' }] });
    assert.equal(typeClash([plain, asks(31, 'zip_code'), asks(32, 'zip_code')]), undefined);
    const clash = typeClash([asks(31, 'zip_code'), plain, asks(32, 'numbers_only')]);
    assert.deepEqual(
      clash?.validations,
      ['numbers_only', 'zip_code'],
      'the one that asks leads past a plain one',
    );
    assert.equal(
      clashProblem(clash, 'contracts[0]'),
      'declares text field "zip" with validation numbers_only, and contracts[0] with zip_code: no value can be both',
    );
    assert.equal(typeClash([dated, plain]), undefined, 'a plain text field still shows a date');
    assert.equal(typeClash([dated, asks(31, 'zip_code')])?.otherType, 'date', 'one that asks cannot');
  });
});
