import { SUPPORTED_LOCALES } from '@esign/contracts';
import { html, type Html } from '../html.js';

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** A language tag by its name in English, and the tag: `Spanish (es)`. */
export const languageName = (tag: string): string => `${languageNames.of(tag) ?? tag} (${tag})`;

/**
 * The languages signers read (ADR 2320) as a select's options, by name and tag, `chosen`
 * selected: a Site's default language, and an added signer's own (ADR 3280). A tag set
 * through the API that is not among them (`pt-BR`) stays offered, so saving the form
 * does not change it.
 */
export const localeOptions = (chosen: string): Html[] =>
  [
    ...SUPPORTED_LOCALES,
    ...(chosen === '' || SUPPORTED_LOCALES.some((l) => l === chosen) ? [] : [chosen]),
  ].map(
    (tag) =>
      html`<option value="${tag}" ${tag === chosen ? html` selected` : ''}>${languageName(tag)}</option>`,
  );
