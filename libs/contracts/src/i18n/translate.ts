import { IntlMessageFormat } from 'intl-messageformat';
import type { Catalogue } from './catalogue.js';
import { de } from './catalogues/de/index.js';
import { en, type MessageKey } from './catalogues/en/index.js';
import { es } from './catalogues/es/index.js';
import { fr } from './catalogues/fr/index.js';
import { pt } from './catalogues/pt/index.js';
import { directionOf, type Locale } from './locale.js';

export type { MessageKey };

/** Every catalogue, by supported language. */
export const CATALOGUES: Readonly<Record<Locale, Catalogue>> = { en, es, fr, de, pt };

export type MessageValues = Readonly<Record<string, string | number>>;

/** Looks a message up in one language and formats it; the same function for every surface. */
export interface Translator {
  readonly locale: Locale;
  /** `ltr` or `rtl`, for the `dir` attribute of what is written in this language. */
  readonly dir: 'ltr' | 'rtl';
  readonly t: (key: MessageKey, values?: MessageValues) => string;
}

const compiled = new Map<string, IntlMessageFormat>();

const formatOf = (locale: Locale, key: MessageKey): IntlMessageFormat => {
  const id = `${locale}\u0000${key}`;
  let format = compiled.get(id);
  if (format === undefined) {
    // A key missing from a catalogue is a failing test (catalogueProblems); at run time, English.
    const message = CATALOGUES[locale][key] ?? en[key];
    format = new IntlMessageFormat(message, locale, undefined, { ignoreTag: true });
    compiled.set(id, format);
  }
  return format;
};

const translators = new Map<Locale, Translator>();

/** The translator for a supported language (compiled messages are cached for the process). */
export const translatorFor = (locale: Locale): Translator => {
  let translator = translators.get(locale);
  if (translator === undefined) {
    translator = {
      locale,
      dir: directionOf(locale),
      t: (key, values) => String(formatOf(locale, key).format(values)),
    };
    translators.set(locale, translator);
  }
  return translator;
};
