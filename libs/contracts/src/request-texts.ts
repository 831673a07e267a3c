import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { transform } from './primitives.js';

/** The longest message to the signers (ADR 3380) and title (ADR 3390), in `LIMITS` too. */
export const MESSAGE_MAX = 2_000;
export const TITLE_MAX = 255;

/**
 * A Request's message to its signers (ADR 3380): plain text they read in their invitation
 * and reminder e-mails and on their signing page. White space around it is dropped; what
 * is left is 1 to 2,000 characters, line breaks and tabs kept and no other control
 * character (it is shown as text, never as markup).
 */
export const SignerMessage = transform(
  t.string,
  (s) => {
    const message = s.trim();
    if (message === '') return E.left('must not be blank');
    if (message.length > MESSAGE_MAX) return E.left(`must be at most ${MESSAGE_MAX} characters`);
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(message))
      return E.left('must not hold control characters other than line breaks and tabs');
    return E.right(message.replace(/\r\n?/g, '\n'));
  },
  (s) => s,
  (u): u is string => typeof u === 'string',
  'SignerMessage',
  {
    minLength: 1,
    maxLength: MESSAGE_MAX,
    description: 'Plain text; white space around it dropped, line breaks kept.',
  },
);

/**
 * A Request's title (ADR 3390): the sender's own name for it, listed and searched; signers
 * never see it. White space around it is dropped; what is left is 1 to 255 characters on
 * one line (no control character).
 */
export const RequestTitle = transform(
  t.string,
  (s) => {
    const title = s.trim();
    if (title === '') return E.left('must not be blank');
    if (title.length > TITLE_MAX) return E.left(`must be at most ${TITLE_MAX} characters`);
    if (/[\u0000-\u001f\u007f-\u009f]/.test(title))
      return E.left('must be one line, without control characters');
    return E.right(title);
  },
  (s) => s,
  (u): u is string => typeof u === 'string',
  'RequestTitle',
  {
    minLength: 1,
    maxLength: TITLE_MAX,
    description: 'One line; white space around it dropped. The sender’s own name for the Request.',
  },
);
