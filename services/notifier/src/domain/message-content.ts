import { escapeHtml, resolveLocale, SENDER_REF, translatorFor } from '@esign/contracts';
import type { NoticeEvent } from './delivery.js';
import {
  cancelledEmail,
  codeEmail,
  completedEmail,
  declinedEmail,
  htmlEmail,
  replacedEmail,
  senderEmail,
  type EmailContent,
} from './notice-emails.js';
import {
  askedBy,
  clip,
  contractNames,
  formatDeadline,
  isLastDay,
  isReminder,
  listInline,
  oneLine,
  senderMessage,
  senderSubject,
  siteName,
} from './notice-text.js';

export { oneLine } from './notice-text.js';
export type { EmailContent } from './notice-emails.js';

const QUOTE_STYLE = 'margin:0 0 16px;padding:8px 14px;border-left:4px solid #9aa5b1;background:#f5f7fa';

/**
 * The e-mail for one recipient, in `locale` (a supported language; anything else reads as
 * English): names the site and the contracts, carries that recipient's URL only.
 * `recipientRef` is the signer's reference, or SENDER_REF for the Request's creator.
 */
export const composeEmail = (
  event: NoticeEvent,
  requestUrl: string,
  locale?: string,
  recipientRef?: string,
): EmailContent => {
  const tr = translatorFor(resolveLocale(locale));
  const { t } = tr;
  // An expiry and a reassignment are told to the creating user alone (ADRs 3520, 3560).
  if (
    event.type === 'notice.expired' ||
    event.type === 'notice.reassigned' ||
    (recipientRef === SENDER_REF && (event.type === 'notice.completed' || event.type === 'notice.declined'))
  )
    return senderEmail(tr, event, requestUrl);
  if (event.type === 'signer.code_requested') return codeEmail(tr, event);
  if (event.type === 'notice.completed') return completedEmail(tr, event, requestUrl);
  if (event.type === 'notice.declined') return declinedEmail(tr, event);
  if (event.type === 'notice.cancelled') return cancelledEmail(tr, event);
  if (event.type === 'notice.replaced') return replacedEmail(tr, event);
  const site = siteName(event, tr);
  const names = contractNames(event, tr);
  const deadline = formatDeadline(event.data.expires_at);
  const reminder = isReminder(event);
  const listed = listInline(tr, names, 2);
  const documents = t('email.documents', { count: names.length });

  // The sender's own subject replaces the usual one; a reminder says so before it (ADR 3400),
  // and one in the last day before the expiry that it is the last day (ADR 3470).
  const own = senderSubject(event);
  const lastDay = isLastDay(event);
  const subject = clip(
    own !== undefined
      ? reminder
        ? t(lastDay ? 'email.reminder.lastDayOwnSubject' : 'email.reminder.ownSubject', { subject: own })
        : own
      : reminder
        ? t(lastDay ? 'email.reminder.lastDaySubject' : 'email.reminder.subject', { site, names: listed })
        : t('email.sent.subject', { site, names: listed }),
    200,
  );
  const lead = reminder
    ? t('email.reminder.lead', { site, documents })
    : t('email.sent.lead', { site, documents });
  const signBefore = deadline === undefined ? undefined : t('email.signBefore', { date: deadline });
  const message = senderMessage(event);
  const from = t('email.message', { site });
  // Whom a signer asked to sign in their place hears who asked, and their note (ADR 3630).
  const asked = askedBy(event);
  const asker = asked === undefined ? undefined : t('email.askedBy', { who: asked.who });
  const quoted = (said: string | undefined, by: string) =>
    said === undefined ? [] : [by, ...said.split('\n').map((line) => `> ${line}`), ''];
  const noteFrom = asked === undefined ? '' : t('email.note', { who: asked.who });

  const text = [
    t('email.hello'),
    '',
    ...(asker === undefined ? [] : [asker, '']),
    lead,
    ...names.map((n) => `  - ${n}`),
    '',
    ...quoted(asked?.note, noteFrom),
    ...quoted(message, from),
    t('email.reviewHere'),
    requestUrl,
    '',
    ...(signBefore === undefined ? [] : [signBefore, '']),
    t('email.personal'),
    '',
  ].join('\n');

  const href = escapeHtml(requestUrl);
  const blockquote = (said: string | undefined, by: string) =>
    said === undefined
      ? []
      : [
          `<p>${escapeHtml(by)}</p>`,
          `<blockquote style="${QUOTE_STYLE}">${escapeHtml(said).replace(/\n/g, '<br>')}</blockquote>`,
        ];
  const html = htmlEmail(tr, subject, [
    ...(asker === undefined ? [] : [`<p>${escapeHtml(asker)}</p>`]),
    `<p>${escapeHtml(lead)}</p>`,
    `<ul>${names.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`,
    ...blockquote(asked?.note, noteFrom),
    ...blockquote(message, from),
    `<p><a href="${href}" style="display:inline-block;padding:10px 18px;background:#1a56db;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(t('email.reviewButton'))}</a></p>`,
    `<p>${escapeHtml(t('email.orOpen'))} <a href="${href}">${href}</a></p>`,
    ...(signBefore === undefined ? [] : [`<p>${escapeHtml(signBefore)}</p>`]),
    `<p style="color:#52606d;font-size:13px">${escapeHtml(t('email.personal'))}</p>`,
  ]);

  return { subject, text, html };
};

/**
 * The SMS for one signer, in `locale`: short enough to stay in few segments, with the
 * URL whole (a cut URL is worthless) and the names clipped instead.
 */
export const composeSms = (event: NoticeEvent, requestUrl: string, locale?: string): string => {
  const tr = translatorFor(resolveLocale(locale));
  const { t } = tr;
  const site = clip(siteName(event, tr), 40);
  const names = listInline(
    tr,
    contractNames(event, tr).map((n) => clip(n, 40)),
    1,
  );
  if (event.type === 'notice.completed') return t('sms.completed', { names, url: requestUrl });
  if (event.type === 'notice.declined')
    return t('sms.declined', { who: oneLine(event.data.declined_by), names });
  if (event.type === 'notice.cancelled') return t('sms.cancelled', { site, names });
  if (event.type === 'notice.replaced') return t('sms.replaced', { site, names });
  // The creating user is told by e-mail only (ADR 3520); were one texted, the subject would do.
  if (event.type === 'notice.expired') return t('email.sender.expired.subject', { names });
  if (event.type === 'notice.reassigned') return t('email.sender.reassigned.subject', { names });
  if (event.type === 'signer.code_requested') return t('sms.code', { code: oneLine(event.data.code), site });
  if (!isReminder(event)) return t('sms.sent', { site, names, url: requestUrl });
  return t(isLastDay(event) ? 'sms.reminder.lastDay' : 'sms.reminder', { site, names, url: requestUrl });
};
