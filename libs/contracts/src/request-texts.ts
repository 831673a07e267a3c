import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { transform } from './primitives.js';

/**
 * The longest message to the signers (ADR 3380), title (ADR 3390) and e-mail subject
 * (ADR 3400), in `LIMITS` too.
 */
export const MESSAGE_MAX = 2_000;
export const TITLE_MAX = 255;
export const SUBJECT_MAX = 200;
/** The longest reason a cancel gives (ADR 3500). */
export const CANCEL_REASON_MAX = 1_000;

/** What a trimmed text may not hold, and what is said when it does. */
interface Refused {
  readonly characters: RegExp;
  readonly message: string;
}

/**
 * Text of 1 to `max` characters once white space around it is dropped, holding none of
 * `refused.characters`; Windows and old Mac line breaks are stored as `\n`.
 */
const trimmedText = (name: string, max: number, description: string, refused: Refused) =>
  transform(
    t.string,
    (s) => {
      const text = s.trim();
      if (text === '') return E.left('must not be blank');
      if (text.length > max) return E.left(`must be at most ${max} characters`);
      if (refused.characters.test(text)) return E.left(refused.message);
      return E.right(text.replace(/\r\n?/g, '\n'));
    },
    (s) => s,
    (u): u is string => typeof u === 'string',
    name,
    { minLength: 1, maxLength: max, description },
  );

/**
 * Plain text: line breaks and tabs kept and no other control character; shown as text,
 * never as markup.
 */
const plainText = (name: string, max: number, description: string) =>
  trimmedText(name, max, description, {
    characters: /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/,
    message: 'must not hold control characters other than line breaks and tabs',
  });

/**
 * A Request's message to its signers (ADR 3380): plain text they read in their invitation
 * and reminder e-mails and on their signing page, 1 to 2,000 characters.
 */
export const SignerMessage = plainText(
  'SignerMessage',
  MESSAGE_MAX,
  'Plain text; white space around it dropped, line breaks kept.',
);

/**
 * Why a Request was cancelled (ADR 3500): plain text of 1 to 1,000 characters, kept in its
 * history and, when they are told, quoted to its signers.
 */
export const CancelReason = plainText(
  'CancelReason',
  CANCEL_REASON_MAX,
  'Plain text; white space around it dropped, line breaks kept. Kept in the Request’s history; quoted to the signers when they are told.',
);

/** One line once trimmed, with no control character. */
const oneLine = (name: string, max: number, description: string) =>
  trimmedText(name, max, description, {
    characters: /[\u0000-\u001f\u007f-\u009f]/,
    message: 'must be one line, without control characters',
  });

/**
 * A Request's title (ADR 3390): the sender's own name for it, listed and searched; signers
 * never see it. White space around it is dropped; what is left is 1 to 255 characters on
 * one line (no control character).
 */
export const RequestTitle = oneLine(
  'RequestTitle',
  TITLE_MAX,
  'One line; white space around it dropped. The sender’s own name for the Request.',
);

/**
 * The subject of a Request's invitation e-mails (ADR 3400), in place of the usual "{Site}
 * sent you … to sign"; reminders say it after "Reminder:" in the signer's language. One
 * line of 1 to 200 characters once trimmed (no control character: it is a mail header).
 */
export const EmailSubject = oneLine(
  'EmailSubject',
  SUBJECT_MAX,
  'One line; white space around it dropped. The subject of the signers’ invitation e-mails.',
);
