import { escapeHtml } from '@esign/contracts';
import type { EmailContent } from './message-content.js';

const when = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The e-mail with a link to choose a new password (ADR 3000): the link, until when it
 * works, and what to do when one did not ask for it. Written in English: users have no
 * language of their own yet.
 */
export const composePasswordReset = (input: {
  readonly resetUrl: string;
  readonly expiresAt: string;
}): EmailContent => {
  const subject = 'Choose a new password';
  const until = when(input.expiresAt);
  const text = [
    'Someone asked for a link to choose a new password for your E-sign account.',
    `Choose a new password here (the link works once, until ${until}):\n${input.resetUrl}`,
    'Choosing one signs you out everywhere and stops the access tokens you made.',
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ].join('\n\n');
  const html = [
    '<p>Someone asked for a link to choose a new password for your E-sign account.</p>',
    `<p><a href="${escapeHtml(input.resetUrl)}">Choose a new password</a> (the link works once, until ${escapeHtml(until)}).</p>`,
    '<p>Choosing one signs you out everywhere and stops the access tokens you made.</p>',
    '<p>If you did not ask for this, ignore this e-mail: your password stays as it is.</p>',
  ].join('\n');
  return { subject, text: `${text}\n`, html };
};
