import { escapeHtml, resolveLocale, SENDER_REF, translatorFor, type Translator } from '@esign/contracts';
import type { NoticeEvent } from './delivery.js';
import {
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

/**
 * What a signer reads, in their language (the event's `locale`, ADR 2320; English for
 * events without one). Site and contract names come from clients: every value is
 * HTML-escaped in the HTML part, and stripped of control characters everywhere (a
 * newline in a name must not break a subject line or forge a paragraph).
 */
export interface EmailContent {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

const BODY_STYLE = 'font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2933';
const QUOTE_STYLE = 'margin:0 0 16px;padding:8px 14px;border-left:4px solid #9aa5b1;background:#f5f7fa';

/** The HTML document around an e-mail's paragraphs, in the reader's language and direction. */
const htmlEmail = (tr: Translator, subject: string, body: readonly string[]): string =>
  [
    '<!doctype html>',
    `<html lang="${tr.locale}" dir="${tr.dir}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    `<body style="${BODY_STYLE}">`,
    `<p>${escapeHtml(tr.t('email.hello'))}</p>`,
    ...body,
    '</body></html>',
    '',
  ].join('\n');

/** A one-time code (signer authentication, ADR 2001): the code and how long it works, no link. */
const codeEmail = (
  tr: Translator,
  event: Extract<NoticeEvent, { type: 'signer.code_requested' }>,
): EmailContent => {
  const { t } = tr;
  const site = siteName(event, tr);
  const code = oneLine(event.data.code);
  const until = formatDeadline(event.data.code_expires_at) ?? t('email.code.tenMinutes');
  const subject = clip(t('email.code.subject', { site, code }), 200);
  const lead = t('email.code.lead', { site });
  const after = t('email.code.until', { until });
  const text = [t('email.hello'), '', `${lead} ${code}`, '', after, ''].join('\n');
  const html = htmlEmail(tr, subject, [
    `<p>${escapeHtml(lead)}</p>`,
    `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${escapeHtml(code)}</p>`,
    `<p>${escapeHtml(after)}</p>`,
  ]);
  return { subject, text, html };
};

const plainEmail = (
  tr: Translator,
  subject: string,
  paragraphs: readonly string[],
  link?: { href: string; label: string },
): EmailContent => {
  const text = [
    tr.t('email.hello'),
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(link ? [link.href, ''] : []),
  ].join('\n');
  const html = htmlEmail(tr, subject, [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`] : []),
  ]);
  return { subject, text, html };
};

/** Everyone signed (ADR 2002): a link to the signer's copy, which works until `copy_expires_at`. */
const completedEmail = (
  tr: Translator,
  event: Extract<NoticeEvent, { type: 'notice.completed' }>,
  copyUrl: string,
) => {
  const { t } = tr;
  const site = siteName(event, tr);
  const names = listInline(tr, contractNames(event, tr), 2);
  const until = formatDeadline(event.data.copy_expires_at) ?? t('email.completed.thirtyDays');
  return plainEmail(
    tr,
    clip(t('email.completed.subject', { names }), 200),
    [t('email.completed.lead', { names, site }), t('email.completed.download', { until })],
    { href: copyUrl, label: t('email.completed.link') },
  );
};

/** A decline's or a cancel's reason as given, on one line, clipped. */
const reasonOf = (reason: string) => clip(reason.replace(/[\u0000-\u001f\u007f]+/g, ' '), 1000);

/** A signer declined: the others who were told of the Request learn who, and why. */
const declinedEmail = (tr: Translator, event: Extract<NoticeEvent, { type: 'notice.declined' }>) => {
  const { t } = tr;
  const site = siteName(event, tr);
  const names = listInline(tr, contractNames(event, tr), 2);
  const who = clip(oneLine(event.data.declined_by), 200);
  const reason = reasonOf(event.data.reason);
  return plainEmail(tr, clip(t('email.declined.subject', { names }), 200), [
    t('email.declined.lead', { who, names, site }),
    t('email.declined.reason', { reason }),
  ]);
};

/** The sender cancelled a sent Request (ADR 3500): those who were told of it learn so, with its reason. */
const cancelledEmail = (tr: Translator, event: Extract<NoticeEvent, { type: 'notice.cancelled' }>) => {
  const { t } = tr;
  const site = siteName(event, tr);
  const names = listInline(tr, contractNames(event, tr), 2);
  const reason = event.data.reason === undefined ? undefined : reasonOf(event.data.reason);
  return plainEmail(tr, clip(t('email.cancelled.subject', { names }), 200), [
    t('email.cancelled.lead', { site, names }),
    ...(reason === undefined ? [] : [t('email.cancelled.reason', { reason })]),
  ]);
};

/**
 * Someone else was put in the signer's place (ADR 3550): the one replaced learns they need
 * not sign, and that the link they were sent no longer works. No link: it would not open.
 */
const replacedEmail = (tr: Translator, event: Extract<NoticeEvent, { type: 'notice.replaced' }>) => {
  const { t } = tr;
  const site = siteName(event, tr);
  const names = listInline(tr, contractNames(event, tr), 2);
  return plainEmail(tr, clip(t('email.replaced.subject', { names }), 200), [
    t('email.replaced.lead', { site, names }),
    t('refusal.signerReplaced.detail'),
  ]);
};

/**
 * The creating user's notices (ADR 2003): their Request ended; the link is its page in the
 * web application (signed in), where the executed PDF or the decline's reason is kept.
 */
const senderEmail = (
  tr: Translator,
  event: Extract<
    NoticeEvent,
    { type: 'notice.completed' | 'notice.declined' | 'notice.expired' | 'notice.reassigned' }
  >,
  pageUrl: string,
) => {
  const { t } = tr;
  const site = siteName(event, tr);
  const names = listInline(tr, contractNames(event, tr), 2);
  const link = { href: pageUrl, label: t('email.sender.link') };
  if (event.type === 'notice.reassigned') {
    const from = clip(oneLine(event.data.reassigned_by), 200);
    const to = clip(oneLine(event.data.reassigned_to), 254);
    return plainEmail(
      tr,
      clip(t('email.sender.reassigned.subject', { names }), 200),
      [t('email.sender.reassigned.lead', { from, to, names, site })],
      link,
    );
  }
  if (event.type === 'notice.expired')
    return plainEmail(
      tr,
      clip(t('email.sender.expired.subject', { names }), 200),
      [t('email.sender.expired.lead', { names, site }), t('email.sender.expired.again')],
      link,
    );
  if (event.type === 'notice.completed')
    return plainEmail(
      tr,
      clip(t('email.completed.subject', { names }), 200),
      [t('email.sender.completed.lead', { names, site }), t('email.sender.completed.where')],
      link,
    );
  const who = clip(oneLine(event.data.declined_by), 200);
  const reason = reasonOf(event.data.reason);
  return plainEmail(
    tr,
    clip(t('email.declined.subject', { names }), 200),
    [t('email.sender.declined.lead', { who, names, site }), t('email.declined.reason', { reason })],
    link,
  );
};

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

  const text = [
    t('email.hello'),
    '',
    lead,
    ...names.map((n) => `  - ${n}`),
    '',
    ...(message === undefined ? [] : [from, ...message.split('\n').map((line) => `> ${line}`), '']),
    t('email.reviewHere'),
    requestUrl,
    '',
    ...(signBefore === undefined ? [] : [signBefore, '']),
    t('email.personal'),
    '',
  ].join('\n');

  const href = escapeHtml(requestUrl);
  const html = htmlEmail(tr, subject, [
    `<p>${escapeHtml(lead)}</p>`,
    `<ul>${names.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`,
    ...(message === undefined
      ? []
      : [
          `<p>${escapeHtml(from)}</p>`,
          `<blockquote style="${QUOTE_STYLE}">${escapeHtml(message).replace(/\n/g, '<br>')}</blockquote>`,
        ]),
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
