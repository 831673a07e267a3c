import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { transform } from '../primitives.js';

/** The languages every surface a signer reads (pages, e-mails, SMS, audit page) is written in. */
export const SUPPORTED_LOCALES = ['en', 'es', 'fr', 'de', 'pt'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** The longest tag we keep: enough for language, script, region and a variant or two. */
export const MAX_LOCALE_TAG = 35;

const isSupported = (language: string): language is Locale =>
  (SUPPORTED_LOCALES as readonly string[]).includes(language);

/** A well-formed BCP 47 tag in its canonical form (`pt-br` → `pt-BR`), or why not. */
export const canonicalLocaleTag = (input: string): E.Either<string, string> => {
  const tag = input.trim();
  if (tag === '' || tag.length > MAX_LOCALE_TAG)
    return E.left(`must be a BCP 47 language tag of 1 to ${MAX_LOCALE_TAG} characters, e.g. "es" or "pt-BR"`);
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical === undefined ? E.left('must be a BCP 47 language tag') : E.right(canonical);
  } catch {
    return E.left('must be a BCP 47 language tag, e.g. "es" or "pt-BR"');
  }
};

const isCanonicalTag = (u: unknown): u is string => {
  if (typeof u !== 'string') return false;
  const canonical = canonicalLocaleTag(u);
  return E.isRight(canonical) && canonical.right === u;
};

/**
 * A signer's or a Site's language as the client gives it: any well-formed BCP 47 tag,
 * kept in canonical form. Tags of languages we do not write in are accepted and read
 * as the nearest one we do (`supportedLocaleOf`), else the next choice.
 */
export const LocaleTag = transform(t.string, canonicalLocaleTag, (s) => s, isCanonicalTag, 'LocaleTag', {
  maxLength: MAX_LOCALE_TAG,
  description:
    'A BCP 47 language tag (e.g. `es`, `pt-BR`, `fr-CA`), kept in canonical form. Pages, e-mails, SMS and the audit page are written in en, es, fr, de and pt; another region of those languages reads as the language (`es-MX` → es); a language outside them falls back to the next choice (the Site default, then English).',
  examples: ['es', 'pt-BR'],
});

const nearestSupported = (tag: string): Locale | undefined => {
  const canonical = canonicalLocaleTag(tag);
  if (E.isLeft(canonical)) return undefined;
  const language = new Intl.Locale(canonical.right).language.toLowerCase();
  return isSupported(language) ? language : undefined;
};

/**
 * Answers by tag as given. ICU builds a locale for each answer (~8 µs), and every e-mail,
 * SMS and signing page asks for the same few tags again. The tags come from clients and
 * browsers, so the table is bounded: it starts afresh when full, and a tag longer than
 * any we keep is never stored.
 */
const nearestByTag = new Map<string, Locale | null>();
export const LOCALE_MEMO_SIZE = 512;

/** The supported language nearest to a tag (`es-MX` → `es`, `pt-BR` → `pt`), if any. */
export const supportedLocaleOf = (tag: string | null | undefined): Locale | undefined => {
  if (tag === null || tag === undefined) return undefined;
  const known = nearestByTag.get(tag);
  if (known !== undefined) return known ?? undefined;
  const nearest = nearestSupported(tag);
  if (tag.length <= MAX_LOCALE_TAG) {
    if (nearestByTag.size >= LOCALE_MEMO_SIZE) nearestByTag.clear();
    nearestByTag.set(tag, nearest ?? null);
  }
  return nearest;
};

/** The first candidate that maps to a supported language; English when none does. */
export const resolveLocale = (...candidates: readonly (string | null | undefined)[]): Locale => {
  for (const candidate of candidates) {
    const locale = supportedLocaleOf(candidate);
    if (locale !== undefined) return locale;
  }
  return DEFAULT_LOCALE;
};

/**
 * The best supported language an `Accept-Language` header asks for (RFC 9110 §12.5.4):
 * ranges by quality, highest first, ties in order; `*` and `q=0` choose nothing.
 */
export const localeFromAcceptLanguage = (header: string | undefined): Locale | undefined => {
  if (header === undefined || header.length > 1000) return undefined;
  const ranges = header
    .split(',')
    .map((part, order) => {
      const [range = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)).find((m) => m !== null);
      return { range: range.trim(), q: q === undefined || q === null ? 1 : Number(q[1]), order };
    })
    .filter((r) => r.range !== '' && r.range !== '*' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { range } of ranges) {
    const locale = supportedLocaleOf(range);
    if (locale !== undefined) return locale;
  }
  return undefined;
};

/** Scripts written right to left (Unicode script codes). */
const RTL_SCRIPTS = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg', 'Mand', 'Samr', 'Yezi']);

/**
 * `rtl` for a tag whose script (given or likely: `ar` → Arab, `az-Arab`) is written right
 * to left, else `ltr`: the page's `dir` follows the language it is written in.
 */
export const directionOf = (tag: string): 'ltr' | 'rtl' => {
  try {
    const script = new Intl.Locale(tag).maximize().script;
    return script !== undefined && RTL_SCRIPTS.has(script) ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
};
