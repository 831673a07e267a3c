import { htmlTemplate } from '@esign/contracts';

export { Html, trusted, type Interpolated } from '@esign/contracts';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Text as HTML, the backtick too (the contracts' `escapeHtml` leaves it as it is). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);

/**
 * The one way pages build markup: every interpolated value is escaped unless it is
 * `Html` already, so a name, a template's text or an API message can never become markup.
 */
export const html = htmlTemplate(escapeHtml);
