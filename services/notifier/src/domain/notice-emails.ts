// The e-mails that are not an invitation or a reminder: a one-time code, and the notices
// that end or change a signer's part (and the creating user's), each in the reader's language.
import { escapeHtml, type Translator } from '@esign/contracts';
import type { NoticeEvent } from './delivery.js';
import {
  clip,
  contractNames,
  formatDeadline,
  listInline,
  oneLine,
  reassignNote,
  siteName,
} from './notice-text.js';

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

/** The HTML document around an e-mail's paragraphs, in the reader's language and direction. */
export const htmlEmail = (tr: Translator, subject: string, body: readonly string[]): string =>
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
export const codeEmail = (
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
export const completedEmail = (
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
export const declinedEmail = (tr: Translator, event: Extract<NoticeEvent, { type: 'notice.declined' }>) => {
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
export const cancelledEmail = (tr: Translator, event: Extract<NoticeEvent, { type: 'notice.cancelled' }>) => {
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
export const replacedEmail = (tr: Translator, event: Extract<NoticeEvent, { type: 'notice.replaced' }>) => {
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
export const senderEmail = (
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
    // Their note to whom they asked (ADR 3630), on one line as a decline's reason is.
    const note = reassignNote(event);
    return plainEmail(
      tr,
      clip(t('email.sender.reassigned.subject', { names }), 200),
      [
        t('email.sender.reassigned.lead', { from, to, names, site }),
        ...(note === undefined ? [] : [`${t('email.note', { who: from })} ${oneLine(note)}`]),
      ],
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
