import * as t from 'io-ts';
import { refine } from './primitives.js';

// A text field's format (ADR 3870), as the requests service checks it and the signer's page
// and the web application show it: a pattern of the value's characters, one by one, where
// `9` stands for a digit, `A` for a letter and `*` for either, `\` makes the character after
// it a literal one, and every other character is itself. No regular expression: any format
// checks a value in one pass, whatever it holds.

/** The longest format: the values it describes are at most this many characters. */
export const FORMAT_MAX_LENGTH = 50;

/** One character of a format: a slot the signer fills, or a character typed as it is. */
type Slot = 'digit' | 'letter' | 'either' | { readonly literal: string };

const SLOTS: Readonly<Record<string, Slot>> = { '9': 'digit', A: 'letter', '*': 'either' };

/** The slots of `format`, or why it is not one. */
const slotsOf = (format: string): readonly Slot[] | string => {
  const slots: Slot[] = [];
  const characters = [...format];
  for (let i = 0; i < characters.length; i++) {
    const c = characters[i]!;
    if (/\p{Cc}/u.test(c)) return 'must not hold control characters or line breaks';
    if (c === '\\') {
      const next = characters[++i];
      if (next === undefined) return 'must not end with "\\": it makes the character after it typed as it is';
      slots.push({ literal: next });
    } else slots.push(SLOTS[c] ?? { literal: c });
  }
  if (!slots.some((s) => typeof s === 'string'))
    return 'must hold at least one 9 (a digit), A (a letter) or * (either), like AA-9999';
  return slots;
};

const LETTER = /^\p{L}$/u;

const fits = (slot: Slot, c: string): boolean => {
  switch (slot) {
    case 'digit':
      return c >= '0' && c <= '9';
    case 'letter':
      return LETTER.test(c);
    case 'either':
      return LETTER.test(c) || (c >= '0' && c <= '9');
    default:
      // A letter typed as it is may be in either case.
      return c === slot.literal || c.toLowerCase() === slot.literal.toLowerCase();
  }
};

/**
 * Whether `value` is written as `format` asks: as many characters as it has slots, each a
 * digit (0-9) where it has `9`, a letter of any alphabet where it has `A`, either where it
 * has `*`, and every other character as it is (a letter in either case).
 */
export const fitsFormat = (format: string, value: string): boolean => {
  const slots = slotsOf(format);
  const characters = [...value];
  return (
    typeof slots !== 'string' &&
    characters.length === slots.length &&
    characters.every((c, i) => fits(slots[i]!, c))
  );
};

/** How many characters a value written as `format` has. */
export const formatLength = (format: string): number => {
  const slots = slotsOf(format);
  return typeof slots === 'string' ? 0 : slots.length;
};

/** The kinds of character a signer fills in `format` with, each once, digits first. */
export const formatPlaceholders = (format: string): readonly ('digit' | 'letter' | 'either')[] => {
  const slots = slotsOf(format);
  if (typeof slots === 'string') return [];
  return (['digit', 'letter', 'either'] as const).filter((kind) => slots.includes(kind));
};

/** Whether a value written as `format` holds no letter: a phone's number pad types it. */
export const formatIsNumeric = (format: string): boolean => {
  const slots = slotsOf(format);
  return (
    typeof slots !== 'string' &&
    slots.every((s) => s === 'digit' || (typeof s !== 'string' && !LETTER.test(s.literal)))
  );
};

/** A text field's `format` (ADR 3870), checked to be one. */
export const FieldFormat = refine(
  t.string,
  (s): s is string => s.length <= FORMAT_MAX_LENGTH && typeof slotsOf(s) !== 'string',
  (s) => {
    if (s.length > FORMAT_MAX_LENGTH) return `must be at most ${FORMAT_MAX_LENGTH} characters`;
    const problem = slotsOf(s);
    return typeof problem === 'string' ? problem : 'must be a format';
  },
  'FieldFormat',
  { minLength: 1, maxLength: FORMAT_MAX_LENGTH },
);
