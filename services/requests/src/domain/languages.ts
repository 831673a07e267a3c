import { DEFAULT_LOCALE, resolveLocale, type Locale } from '@esign/contracts';

/**
 * The language of what every signer of a Request reads together, the executed document's
 * cover and audit pages (ADR 2320): the language all its signers read (their own, else the
 * Site's default), when they share one; else the Site's default; else English. Each
 * signer's own pages and messages are in their own language.
 */
export const sharedLocale = (request: {
  readonly siteLocale?: string | null;
  readonly signers: readonly { readonly locale?: string | null }[];
}): Locale => {
  const languages = new Set(request.signers.map((s) => resolveLocale(s.locale, request.siteLocale)));
  const [only] = languages;
  return languages.size === 1 && only !== undefined
    ? only
    : resolveLocale(request.siteLocale, DEFAULT_LOCALE);
};
