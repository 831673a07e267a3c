import type { Translator } from '@esign/contracts';
import type { NoticeEvent } from './delivery.js';

/*
 * What a signer's message reads from its event: names on one line and clipped, the sender's
 * message and subject, whether it reminds (and in the last day before the expiry), and the
 * deadline, each as the e-mail and the SMS put it (message-content.ts).
 */

/** One line of plain text: control characters and runs of white space become one space. */
export const oneLine = (s: string): string => s.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();

export const clip = (s: string, max: number): string =>
  s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`;

export const siteName = (event: NoticeEvent, { t }: Translator): string =>
  clip(oneLine(event.data.site.name), 100) || t('email.aSite');

export const contractNames = (event: NoticeEvent, { t }: Translator): string[] =>
  event.data.contracts.map((c) => clip(oneLine(c.name), 200) || t('email.contract', { id: c.id }));

/** "A", "A and B", "A, B and 3 more": a list that fits on one line. */
export const listInline = ({ t }: Translator, names: readonly string[], shown: number): string => {
  if (names.length === 0) return t('email.list.none');
  const head = names.slice(0, shown);
  const rest = names.length - head.length;
  const quoted = head.map((n) => `"${n}"`);
  if (rest > 0) return t('email.list.more', { names: quoted.join(', '), count: rest });
  return quoted.length === 1
    ? quoted[0]!
    : t('email.list.and', { names: quoted.slice(0, -1).join(', '), last: quoted[quoted.length - 1]! });
};

/**
 * The sender's message to the signers (ADR 3380), as text: its line breaks kept (CRLF as
 * LF), every other control character a space, clipped as the API bounds it.
 */
export const senderMessage = (event: NoticeEvent): string | undefined =>
  'message' in event.data ? written(event.data.message, 2000) : undefined;

/** Text someone wrote, whatever an event holds: its line breaks kept, other controls spaces, clipped. */
const written = (value: unknown, limit: number): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, ' ');
  return clip(text.trim(), limit) || undefined;
};

/**
 * Who asked this invitation's signer to sign in their place, on one line, and the note they
 * wrote them, as the API bounds it (ADR 3630); undefined on any other message.
 */
export const askedBy = (event: NoticeEvent): { who: string; note: string | undefined } | undefined => {
  if (event.type !== 'request.reminded' || typeof event.data.asked_by !== 'string') return undefined;
  const who = clip(oneLine(event.data.asked_by), 254);
  return who === '' ? undefined : { who, note: written(event.data.note, 1000) };
};

/** A reassigning signer's note as the creating user is told it (ADR 3630), as `askedBy` reads it. */
export const reassignNote = (event: NoticeEvent): string | undefined =>
  event.type === 'notice.reassigned' ? written(event.data.note, 1000) : undefined;

/**
 * The sender's subject for the invitations (ADR 3400), on one line and clipped as the API
 * bounds it, whatever an event holds.
 */
export const senderSubject = (event: NoticeEvent): string | undefined => {
  const subject = 'subject' in event.data ? event.data.subject : undefined;
  return typeof subject === 'string' ? clip(oneLine(subject), 200) || undefined : undefined;
};

/**
 * Whether a message reminds: a reminder does, unless it carries a new link to a corrected
 * address or number, which hears of the Request for the first time (ADR 3420).
 */
export const isReminder = (event: NoticeEvent): boolean =>
  event.type === 'request.reminded' && event.data.readdressed !== true;

/**
 * A reminder sent in the last day before the Request expires (ADR 3470: the expiry warning,
 * or any other reminder that late), as the requests service marked it (`last_day`): its
 * subject says it is the last day to sign.
 */
export const isLastDay = (event: NoticeEvent): boolean =>
  isReminder(event) && event.type === 'request.reminded' && event.data.last_day === true;

/** `2025-03-13 14:00 UTC`: unambiguous whatever the reader's locale. */
export const formatDeadline = (iso: string | null): string | undefined => {
  if (iso === null) return undefined;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
};
