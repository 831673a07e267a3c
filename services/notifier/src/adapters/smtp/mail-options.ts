import { hash } from 'node:crypto';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import type { EmailMessage } from '../../ports/email-sender.js';

const domainOf = (from: string): string => {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  const domain = address.split('@')[1]?.trim().toLowerCase();
  return domain !== undefined && /^[a-z0-9.-]+$/.test(domain) ? domain : 'esign.localhost';
};

/** Who the e-mails are from, as every message hands it to nodemailer. */
export interface MailSender {
  readonly from: NonNullable<SendMailOptions['from']>;
  /** The domain of the Message-IDs. */
  readonly domain: string;
}

/**
 * The configured From (EMAIL_FROM), parsed once. nodemailer parses a From given as text
 * again for every message; given the mailbox it would parse out of it, it does not (ADR
 * 2880). A value that is not one mailbox stays text, and nodemailer treats it as before.
 */
export const mailSender = (from: string): MailSender => {
  // Not flattened: a group of one member is a group, not that member's mailbox.
  const parsed = addressparser(from);
  const only = parsed.length === 1 ? parsed[0] : undefined;
  return {
    from:
      only?.address !== undefined && only.address !== '' ? { name: only.name, address: only.address } : from,
    domain: domainOf(from),
  };
};

/**
 * The Message-ID of one (event, signer, channel): the same for a repeat after a crash,
 * so mail systems that collapse duplicates by Message-ID show the signer one message.
 */
export const messageIdFor = (idempotencyKey: string, domain: string): string =>
  `<${hash('sha256', idempotencyKey, 'hex').slice(0, 40)}@${domain}>`;

/** The nodemailer message for one e-mail, whatever transport carries it. */
export const mailOptions = (message: EmailMessage, sender: MailSender): SendMailOptions => ({
  from: sender.from,
  // An address object, not a string: nodemailer never parses it as a list.
  to: { name: '', address: message.to },
  subject: message.subject,
  text: message.text,
  html: message.html,
  ...(message.replyTo === undefined ? {} : { replyTo: { name: '', address: message.replyTo } }),
  messageId: messageIdFor(message.idempotencyKey, sender.domain),
  // RFC 3834: an automatic message; well-behaved auto-responders stay quiet.
  headers: { 'Auto-Submitted': 'auto-generated' },
});

/**
 * The whole message as an RFC 5322 file (.eml), built by the same nodemailer options the
 * SMTP sender uses: what the local outbox writes when no SMTP server is configured.
 */
export const emlRenderer = (from: string): ((message: EmailMessage) => Promise<Buffer>) => {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const sender = mailSender(from);
  return async (message) => (await composer.sendMail(mailOptions(message, sender))).message as Buffer;
};
