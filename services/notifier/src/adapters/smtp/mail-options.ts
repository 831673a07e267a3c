import { createHash } from 'node:crypto';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { EmailMessage } from '../../ports/email-sender.js';

const domainOf = (from: string): string => {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  const domain = address.split('@')[1]?.trim().toLowerCase();
  return domain !== undefined && /^[a-z0-9.-]+$/.test(domain) ? domain : 'esign.localhost';
};

/**
 * The Message-ID of one (event, signer, channel): the same for a repeat after a crash,
 * so mail systems that collapse duplicates by Message-ID show the signer one message.
 */
export const messageIdFor = (idempotencyKey: string, from: string): string =>
  `<${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40)}@${domainOf(from)}>`;

/** The nodemailer message for one e-mail, whatever transport carries it. */
export const mailOptions = (message: EmailMessage, from: string): SendMailOptions => ({
  from,
  // An address object, not a string: nodemailer never parses it as a list.
  to: { name: '', address: message.to },
  subject: message.subject,
  text: message.text,
  html: message.html,
  ...(message.replyTo === undefined ? {} : { replyTo: { name: '', address: message.replyTo } }),
  messageId: messageIdFor(message.idempotencyKey, from),
  // RFC 3834: an automatic message; well-behaved auto-responders stay quiet.
  headers: { 'Auto-Submitted': 'auto-generated' },
});

/**
 * The whole message as an RFC 5322 file (.eml), built by the same nodemailer options the
 * SMTP sender uses: what the local outbox writes when no SMTP server is configured.
 */
export const emlRenderer = (from: string): ((message: EmailMessage) => Promise<Buffer>) => {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return async (message) => (await composer.sendMail(mailOptions(message, from))).message as Buffer;
};
