import { localeFromAcceptLanguage, resolveLocale, translatorFor, type Translator } from '@esign/contracts';

/**
 * The language of a signer page (ADR 2320): the signer's own (`locale` on their entry),
 * else the Site's default when the Request was made, else the browser's `Accept-Language`,
 * else English. Pages that cannot tell whose link they answer (a broken link) have only
 * the browser's.
 */
export const pageTranslator = (
  acceptLanguage: string | undefined,
  signer?: { readonly locale?: string | null },
  request?: { readonly siteLocale?: string | null },
): Translator =>
  translatorFor(
    resolveLocale(signer?.locale, request?.siteLocale, localeFromAcceptLanguage(acceptLanguage || undefined)),
  );
