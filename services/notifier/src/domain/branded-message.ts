import { escapeHtml, type EventBranding } from '@esign/contracts';
import type { EmailContent } from './message-content.js';
import { oneLine } from './message-content.js';

/** The neutral button colour of the e-mails, replaced by a Site's accent. */
const NEUTRAL_ACCENT = '#1a56db';
const HEX = /^#[0-9a-fA-F]{6}$/;

/** An e-mail with the Site's branding (ADR 2301), and where replies go. */
export interface BrandedEmail extends EmailContent {
  readonly replyTo?: string;
}

/**
 * Applies a Site's branding to an e-mail composed neutrally: the logo above the text (its
 * URL resolved against the signer's link, so it is the public address the link uses), the
 * accent on the button, the footer below (escaped, line breaks kept) and Reply-To. The
 * display name is already the site's name in the event.
 */
export const brandEmail = (
  content: EmailContent,
  branding: EventBranding | undefined,
  link: string,
  siteName: string,
): BrandedEmail => {
  if (branding === undefined) return content;
  let html = content.html;
  let text = content.text;
  if (branding.accent_color !== null && HEX.test(branding.accent_color))
    html = html.split(NEUTRAL_ACCENT).join(branding.accent_color);
  if (branding.logo_path !== null) {
    let src: string | undefined;
    try {
      src = new URL(branding.logo_path, link).toString();
    } catch {
      src = undefined;
    }
    if (src !== undefined && /^https?:/.test(src))
      html = html.replace(
        /(<body[^>]*>)/,
        `$1\n<p><img src="${escapeHtml(src)}" alt="${escapeHtml(oneLine(siteName))}" height="48" style="height:48px;width:auto;border:0"></p>`,
      );
  }
  if (branding.email_footer !== null) {
    const footer = branding.email_footer.replace(/[\u0000-\u0009\u000b-\u001f\u007f]+/g, ' ').trim();
    html = html.replace(
      '</body>',
      `<hr style="border:0;border-top:1px solid #cbd2d9">\n<p style="color:#52606d;font-size:13px">${footer
        .split('\n')
        .map((line) => escapeHtml(line))
        .join('<br>')}</p>\n</body>`,
    );
    text = `${text}\n--\n${footer}\n`;
  }
  return {
    ...content,
    html,
    text,
    ...(branding.reply_to === null ? {} : { replyTo: oneLine(branding.reply_to) }),
  };
};
