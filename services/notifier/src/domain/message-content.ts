import { escapeHtml, SENDER_REF } from '@esign/contracts';
import type { NoticeEvent } from './delivery.js';

/**
 * What a signer reads. Site and contract names come from clients: every value is
 * HTML-escaped in the HTML part, and stripped of control characters everywhere (a
 * newline in a name must not break a subject line or forge a paragraph).
 */
export interface EmailContent {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** One line of plain text: control characters and runs of white space become one space. */
export const oneLine = (s: string): string => s.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();

const clip = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`);

const siteName = (event: NoticeEvent): string => clip(oneLine(event.data.site.name), 100) || 'A site';

const contractNames = (event: NoticeEvent): string[] =>
  event.data.contracts.map((c) => clip(oneLine(c.name), 200) || `Contract ${c.id}`);

/** "A", "A and B", "A, B and 3 more": a list that fits on one line. */
const listInline = (names: readonly string[], shown: number): string => {
  if (names.length === 0) return 'a document';
  const head = names.slice(0, shown);
  const rest = names.length - head.length;
  if (rest > 0) return `${head.map((n) => `"${n}"`).join(', ')} and ${rest} more`;
  const quoted = head.map((n) => `"${n}"`);
  return quoted.length === 1
    ? quoted[0]!
    : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]!}`;
};

/** `2025-03-13 14:00 UTC`: unambiguous whatever the reader's locale. */
const formatDeadline = (iso: string | null): string | undefined => {
  if (iso === null) return undefined;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
};

const documents = (n: number) => (n === 1 ? 'a document' : `${n} documents`);

/** A one-time code (signer authentication, ADR 2001): the code and how long it works, no link. */
const codeEmail = (event: Extract<NoticeEvent, { type: 'signer.code_requested' }>): EmailContent => {
  const site = siteName(event);
  const code = oneLine(event.data.code);
  const until = formatDeadline(event.data.code_expires_at) ?? 'in 10 minutes';
  const subject = clip(`Your code to sign for ${site}: ${code}`, 200);
  const text = [
    'Hello,',
    '',
    `Your code to open the document ${site} sent you: ${code}`,
    '',
    `It works once, until ${until}. If you did not ask for it, ignore this e-mail.`,
    '',
  ].join('\n');
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2933">',
    '<p>Hello,</p>',
    `<p>Your code to open the document ${escapeHtml(site)} sent you:</p>`,
    `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${escapeHtml(code)}</p>`,
    `<p>It works once, until ${escapeHtml(until)}. If you did not ask for it, ignore this e-mail.</p>`,
    '</body></html>',
    '',
  ].join('\n');
  return { subject, text, html };
};

const plainEmail = (
  subject: string,
  paragraphs: readonly string[],
  link?: { href: string; label: string },
) => {
  const text = ['Hello,', '', ...paragraphs.flatMap((p) => [p, '']), ...(link ? [link.href, ''] : [])].join(
    '\n',
  );
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2933">',
    '<p>Hello,</p>',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`] : []),
    '</body></html>',
    '',
  ].join('\n');
  return { subject, text, html };
};

/** Everyone signed (ADR 2002): a link to the signer's copy, which works until `copy_expires_at`. */
const completedEmail = (event: Extract<NoticeEvent, { type: 'notice.completed' }>, copyUrl: string) => {
  const site = siteName(event);
  const names = listInline(contractNames(event), 2);
  const until = formatDeadline(event.data.copy_expires_at) ?? 'for 30 days';
  return plainEmail(
    clip(`Completed: ${names} is signed by everyone`, 200),
    [
      `Everyone has signed ${names}, which ${site} sent for signing.`,
      `Download your copy of the signed document (PDF) with the link below. It works until ${until}; keep the file somewhere safe.`,
    ],
    { href: copyUrl, label: 'Download your copy (PDF)' },
  );
};

/** A decline's reason as given, on one paragraph, clipped. */
const reasonLine = (reason: string) =>
  `Their reason: ${clip(reason.replace(/[\u0000-\u001f\u007f]+/g, ' '), 1000)}`;

/** A signer declined: the others who were told of the Request learn who, and why. */
const declinedEmail = (event: Extract<NoticeEvent, { type: 'notice.declined' }>) => {
  const site = siteName(event);
  const names = listInline(contractNames(event), 2);
  const who = clip(oneLine(event.data.declined_by), 200);
  return plainEmail(clip(`Declined: ${names}`, 200), [
    `${who} declined to sign ${names}, which ${site} sent for signing. The request has ended: nothing more is needed from you.`,
    reasonLine(event.data.reason),
  ]);
};

/**
 * The creating user's notices (ADR 2003): their Request ended; the link is its page in the
 * web application (signed in), where the executed PDF or the decline's reason is kept.
 */
const senderEmail = (
  event: Extract<NoticeEvent, { type: 'notice.completed' | 'notice.declined' }>,
  pageUrl: string,
) => {
  const site = siteName(event);
  const names = listInline(contractNames(event), 2);
  const link = { href: pageUrl, label: 'Open the request' };
  if (event.type === 'notice.completed')
    return plainEmail(
      clip(`Completed: ${names} is signed by everyone`, 200),
      [
        `Everyone has signed ${names}, which you sent for signing from ${site}.`,
        'The signed document (PDF) is on the request’s page, with its audit trail.',
      ],
      link,
    );
  const who = clip(oneLine(event.data.declined_by), 200);
  return plainEmail(
    clip(`Declined: ${names}`, 200),
    [
      `${who} declined to sign ${names}, which you sent for signing from ${site}. The request has ended.`,
      reasonLine(event.data.reason),
    ],
    link,
  );
};

/**
 * The e-mail for one recipient: names the site and the contracts, carries that
 * recipient's URL only. `recipientRef` is the signer's reference, or SENDER_REF for the
 * Request's creator.
 */
export const composeEmail = (event: NoticeEvent, requestUrl: string, recipientRef?: string): EmailContent => {
  if (recipientRef === SENDER_REF && (event.type === 'notice.completed' || event.type === 'notice.declined'))
    return senderEmail(event, requestUrl);
  if (event.type === 'signer.code_requested') return codeEmail(event);
  if (event.type === 'notice.completed') return completedEmail(event, requestUrl);
  if (event.type === 'notice.declined') return declinedEmail(event);
  const site = siteName(event);
  const names = contractNames(event);
  const deadline = formatDeadline(event.data.expires_at);
  const reminder = event.type === 'request.reminded';

  const subject = clip(
    reminder
      ? `Reminder: ${site} is waiting for your signature on ${listInline(names, 2)}`
      : `${site} sent you ${listInline(names, 2)} to sign`,
    200,
  );
  const lead = reminder
    ? `${site} is still waiting for your signature on ${documents(names.length)}:`
    : `${site} has sent you ${documents(names.length)} to sign:`;
  const deadlineLine = deadline === undefined ? [] : [`Please sign before ${deadline}.`, ''];

  const text = [
    'Hello,',
    '',
    lead,
    ...names.map((n) => `  - ${n}`),
    '',
    'Review and sign here:',
    requestUrl,
    '',
    ...deadlineLine,
    'This link is personal to you: please do not forward it.',
    '',
  ].join('\n');

  const href = escapeHtml(requestUrl);
  const html = [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"><title>',
    escapeHtml(subject),
    '</title></head>',
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2933">',
    '<p>Hello,</p>',
    `<p>${escapeHtml(lead)}</p>`,
    `<ul>${names.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`,
    `<p><a href="${href}" style="display:inline-block;padding:10px 18px;background:#1a56db;color:#ffffff;text-decoration:none;border-radius:4px">Review and sign</a></p>`,
    `<p>Or open this link: <a href="${href}">${href}</a></p>`,
    ...(deadline === undefined ? [] : [`<p>Please sign before ${escapeHtml(deadline)}.</p>`]),
    '<p style="color:#52606d;font-size:13px">This link is personal to you: please do not forward it.</p>',
    '</body></html>',
    '',
  ].join('\n');

  return { subject, text, html };
};

/**
 * The SMS for one signer: short enough to stay in few segments, with the URL whole
 * (a cut URL is worthless) and the names clipped instead.
 */
export const composeSms = (event: NoticeEvent, requestUrl: string): string => {
  const site = clip(siteName(event), 40);
  const names = contractNames(event).map((n) => clip(n, 40));
  const what = listInline(names, 1);
  if (event.type === 'notice.completed') return `Everyone has signed ${what}. Your copy: ${requestUrl}`;
  if (event.type === 'notice.declined') return `${oneLine(event.data.declined_by)} declined to sign ${what}.`;
  if (event.type === 'signer.code_requested')
    return `${oneLine(event.data.code)} is your code to sign for ${site}. It works once, for 10 minutes.`;
  return event.type === 'request.reminded'
    ? `Reminder: ${site} is waiting for your signature on ${what}. Sign here: ${requestUrl}`
    : `${site} sent you ${what} to sign. Sign here: ${requestUrl}`;
};
