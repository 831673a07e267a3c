import * as TE from 'fp-ts/lib/TaskEither.js';
import nodemailer from 'nodemailer';
import type { SendFailure } from '../../domain/delivery.js';
import type { EmailSender } from '../../ports/email-sender.js';
import { mailOptions, mailSender } from './mail-options.js';

interface SmtpError {
  readonly message?: unknown;
  readonly code?: unknown;
  readonly responseCode?: unknown;
  readonly command?: unknown;
}

/**
 * SMTP reply classes (RFC 5321): 4yz is transient, 5yz permanent. A 5yz counts as
 * permanent for the message only when it is about the recipient or the message (RCPT
 * TO, DATA) or the address is malformed; a 5yz to AUTH or MAIL FROM is our own
 * configuration, and no connection at all is an outage: both are retried.
 */
export const classifySmtpError = (error: unknown): SendFailure => {
  const e = (typeof error === 'object' && error !== null ? error : {}) as SmtpError;
  const text = typeof e.message === 'string' ? e.message : String(error);
  const code = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const aboutMessage = e.command === 'RCPT TO' || e.command === 'DATA';
  if (code !== undefined && code >= 500 && code !== 503 && aboutMessage)
    return { _tag: 'Permanent', error: text };
  if (e.code === 'EMESSAGE' && code === undefined) return { _tag: 'Permanent', error: text };
  if (e.code === 'EENVELOPE' && e.command === 'API') return { _tag: 'Permanent', error: text };
  return { _tag: 'Transient', error: text };
};

export interface SmtpEmailSenderOptions {
  /** `smtp://user:pass@host:587` or `smtps://…:465`; query parameters tune nodemailer (e.g. `?requireTLS=true`). */
  readonly url: string;
  /** The From header, e.g. `E-signature <no-reply@example.com>`. */
  readonly from: string;
  /** Connections kept open to the server. */
  readonly maxConnections?: number;
  /** Upper bound for connecting, greeting and each socket read. */
  readonly timeoutMs?: number;
}

/** E-mail over SMTP with a pooled nodemailer transport; `close` ends its connections. */
export const smtpEmailSender = (
  options: SmtpEmailSenderOptions,
): { readonly sender: EmailSender; readonly close: () => Promise<void> } => {
  const timeout = options.timeoutMs ?? 30_000;
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: options.maxConnections ?? 5,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    // Message content never names files or URLs to embed.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const sender = mailSender(options.from);
  return {
    sender: {
      send: (message) =>
        TE.tryCatch(async () => {
          const info = await transport.sendMail(mailOptions(message, sender));
          return { providerMessageId: info.serverMessageId ?? info.messageId };
        }, classifySmtpError),
    },
    close: () => {
      transport.close();
      return Promise.resolve();
    },
  };
};
