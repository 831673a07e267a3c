import { escapeHtml, htmlTemplate } from '@esign/contracts';

// Markup that is already safe: built by `safe` or by the contract sanitizer (`trusted`).
export { Html, trusted } from '@esign/contracts';

/**
 * A template tag that escapes every interpolated value unless it is `Html` already, so a
 * page cannot forget to escape a name, a field value or a URL.
 */
export const safe = htmlTemplate(escapeHtml);
