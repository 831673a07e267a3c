import { DEFAULT_LOCALE, resolveLocale, type Locale } from '@esign/contracts';

/**
 * The language of what every signer of a Request reads together, the executed document's
 * cover and audit pages (ADR 2320): the language all its signers read, when they share one;
 * English when they do not (each signer's own pages and messages are in their own).
 */
export const sharedLocale = (signers: readonly { readonly locale?: string | null }[]): Locale => {
  const languages = new Set(signers.map((s) => resolveLocale(s.locale)));
  const [only] = languages;
  return languages.size === 1 && only !== undefined ? only : DEFAULT_LOCALE;
};
