import { isValidIBAN } from 'ibantools';
import * as vat from 'jsvat';
import { isEmail, resolveBound, type TextValidation } from '@esign/contracts';

// What a field's value must be, whatever declares it: a calendar date within its bounds
// (ADRs 3580, 3620) and the kinds of value a text field asks for (ADR 3600). A leaf:
// template-fields.ts declares the fields and re-exports these rules.

// One reading of dates and their bounds for the service, the signer's page and the web.
export { isCalendarDate, isDateBound } from '@esign/contracts';

/**
 * A US Social Security number as the SSA issues them (ADR 3680): 123-45-6789 or 123456789,
 * never area 000, 666 or 900-999, group 00 or serial 0000.
 */
const isSsn = (value: string): boolean => {
  const match = /^(\d{3})(-?)(\d{2})\2(\d{4})$/.exec(value);
  if (match === null) return false;
  const [, area, , group, serial] = match;
  return area !== '000' && area !== '666' && !area!.startsWith('9') && group !== '00' && serial !== '0000';
};

/** Nine digits whose ABA check digit holds: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
const isRoutingNumber = (value: string): boolean => {
  if (!/^\d{9}$/.test(value)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return [...value].reduce((sum, digit, i) => sum + Number(digit) * weights[i]!, 0) % 10 === 0;
};

/**
 * An IBAN (ISO 13616, ADRs 3690, 3770), written in any case, in groups of one space or none:
 * its country in SWIFT's IBAN registry, the length and the letters and digits that
 * country's account numbers have, and its mod-97 check digits (and a national check digit
 * where the registry has one), as `ibantools` keeps them.
 */
const isIban = (value: string): boolean =>
  !/ {2}/.test(value) && isValidIBAN(value.replace(/ /g, '').toUpperCase());

/** The countries whose VAT numbers `vat_number` takes (ADR 3830): Europe's that `jsvat` knows. */
const VAT_COUNTRIES = [
  vat.andorra,
  vat.austria,
  vat.belgium,
  vat.bulgaria,
  vat.croatia,
  vat.cyprus,
  vat.czechRepublic,
  vat.denmark,
  vat.estonia,
  vat.europe,
  vat.finland,
  vat.france,
  vat.germany,
  vat.greece,
  vat.hungary,
  vat.ireland,
  vat.italy,
  vat.latvia,
  vat.lithuania,
  vat.luxembourg,
  vat.malta,
  vat.netherlands,
  vat.norway,
  vat.poland,
  vat.portugal,
  vat.romania,
  vat.serbia,
  vat.slovakiaRepublic,
  vat.slovenia,
  vat.spain,
  vat.sweden,
  vat.switzerland,
  vat.unitedKingdom,
];

/**
 * A European VAT number (ADR 3830), written in any case, its country's prefix first (EL for
 * Greece, CHE for Switzerland, EU for the non-Union scheme), with single spaces, dots or
 * hyphens between characters or none: the length, letters and digits that country's numbers
 * have, and its check digits, as `jsvat` keeps them.
 */
const isVatNumber = (value: string): boolean =>
  /^[A-Za-z]{2}(?:[ .-]?[A-Za-z0-9])+$/.test(value) && vat.checkVAT(value, VAT_COUNTRIES).isValid;

const VALIDATIONS: Readonly<Record<TextValidation, (value: string) => boolean>> = {
  email_address: isEmail,
  numbers_only: (value) => /^[0-9]+$/.test(value),
  // Ten digits, as people write them: 555-014-3000, 555.014.3000, (555) 014-3000, 5550143000.
  phone_number: (value) => /^(?:\(\d{3}\) ?|\d{3}[-. ]?)\d{3}[-. ]?\d{4}$/.test(value),
  zip_code: (value) => /^\d{5}(?:-\d{4})?$/.test(value),
  // Words of letters (any alphabet, with their accents) joined by one space, hyphen or apostrophe.
  letters_only: (value) => /^[\p{L}\p{M}]+(?:[ '’-][\p{L}\p{M}]+)*$/u.test(value),
  ssn: isSsn,
  ein: (value) => /^(?!00)\d{2}-?\d{7}$/.test(value),
  bank_routing_number: isRoutingNumber,
  // Royal Mail's outward and inward codes, one space or none between: SW1A 1AA, M1 1AE.
  uk_postcode: (value) => /^(?:GIR ?0AA|[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})$/i.test(value),
  // Canada Post's letter-digit-letter, digit-letter-digit, without D, F, I, O, Q or U: K1A 0B1.
  ca_postal_code: (value) => /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/i.test(value),
  iban: isIban,
  vat_number: isVatNumber,
};

/** Whether a text value (trimmed) looks as `validation` asks (ADR 3600). */
export const fitsValidation = (validation: TextValidation, value: string): boolean =>
  VALIDATIONS[validation](value);

/** What a value that does not fit is told, in English (the signing page translates it). */
export const VALIDATION_PROBLEM: Readonly<Record<TextValidation, string>> = {
  email_address: 'must be an e-mail address, like name@example.com',
  numbers_only: 'must be digits only, like 12345',
  phone_number: 'must be a 10-digit phone number, like 555-014-3000',
  zip_code: 'must be a ZIP code, like 12345 or 12345-6789',
  letters_only: "must be letters only, like Anne-Marie O'Neil",
  ssn: 'must be a US Social Security number, like 123-45-6789',
  ein: 'must be a US Employer Identification Number, like 12-3456789',
  bank_routing_number: 'must be a 9-digit US bank routing number, like 021000021',
  uk_postcode: 'must be a UK postcode, like SW1A 1AA',
  ca_postal_code: 'must be a Canadian postal code, like K1A 0B1',
  iban: 'must be an IBAN, like DE89 3704 0044 0532 0130 00',
  vat_number: 'must be a European VAT number with its country code, like DE136695976',
};

/** What a value not written as a text field's `format` asks (ADR 3870) is told, in English. */
export const formatProblem = (format: string): string => `must be written as ${format}`;

/**
 * Why a date (YYYY-MM-DD) is outside the bounds of every definition that sets them (ADRs
 * 3620, 3650), or undefined when it is inside. `today` is the day a relative bound moves
 * from (UTC, the day of the signing act); without it (a pre-filled value), such bounds are
 * not checked.
 */
export const outsideBounds = (
  definitions: readonly { readonly type: string; readonly earliest?: string; readonly latest?: string }[],
  value: string,
  today: string | undefined,
): string | undefined => {
  for (const d of definitions) {
    if (d.type !== 'date') continue;
    const earliest = resolveBound(d.earliest, today);
    const latest = resolveBound(d.latest, today);
    if (earliest !== undefined && value < earliest) return `must be on or after ${earliest}`;
    if (latest !== undefined && value > latest) return `must be on or before ${latest}`;
  }
  return undefined;
};
