import { createHash } from 'node:crypto';
import { access, constants, mkdir, rename, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Logger } from '@esign/platform';
import type { EmailMessage, EmailSender } from '../../ports/email-sender.js';
import type { SmsSender } from '../../ports/sms-sender.js';

/**
 * The local sink, for a machine without SMTP or Twilio settings (`npm start`): each
 * message becomes a file under `dir` (`email/*.eml`, opens in any mail client;
 * `sms/*.txt`) and a log line. A real adapter with the same contract as the providers,
 * so the whole flow, deliveries table and outcome events included, runs locally.
 */
const fileName = (idempotencyKey: string, extension: string): string => {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const hash = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 12);
  return `${stamp}-${hash}.${extension}`;
};

/** Writes whole or not at all: a reader never sees half a message. */
const writeAtomically = async (folder: string, name: string, content: Buffer | string): Promise<string> => {
  await mkdir(folder, { recursive: true });
  const path = join(folder, name);
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
  return path;
};

/**
 * Checks at start-up that the outbox folder can be written, so a read-only working
 * directory (a container running as a non-root user) stops start-up with one clear
 * line instead of failing every message later.
 */
export const prepareLocalOutbox = async (dir: string): Promise<void> => {
  try {
    for (const sub of ['email', 'sms']) {
      await mkdir(join(dir, sub), { recursive: true });
      await access(join(dir, sub), constants.W_OK);
    }
  } catch (error) {
    throw new Error(
      `NOTIFIER_OUTBOX_DIR ${dir} cannot be written (${error instanceof Error ? error.message : String(error)}): ` +
        'point it at a writable folder, or set SMTP_URL and the TWILIO_* variables',
    );
  }
};

const failure = (error: unknown) => ({
  _tag: 'Transient' as const,
  error: `local outbox: ${error instanceof Error ? error.message : String(error)}`,
});

/** `render` makes the .eml file's content (the SMTP adapter's `emlRenderer`, in production). */
export const localEmailOutbox = (options: {
  dir: string;
  render: (message: EmailMessage) => Promise<Buffer>;
  logger: Logger;
}): EmailSender => {
  const folder = join(options.dir, 'email');
  return {
    send: (message) =>
      TE.tryCatch(async () => {
        const path = await writeAtomically(
          folder,
          fileName(message.idempotencyKey, 'eml'),
          await options.render(message),
        );
        options.logger.info(
          { channel: 'email', to: message.to, subject: message.subject, file: path },
          'e-mail written to the local outbox (no SMTP_URL set)',
        );
        return { providerMessageId: `file:${relative(options.dir, path)}` };
      }, failure),
  };
};

export const localSmsOutbox = (options: { dir: string; logger: Logger }): SmsSender => {
  const folder = join(options.dir, 'sms');
  return {
    send: (message) =>
      TE.tryCatch(async () => {
        const content = `To: ${message.to}\nDate: ${new Date().toISOString()}\n\n${message.body}\n`;
        const path = await writeAtomically(folder, fileName(message.idempotencyKey, 'txt'), content);
        options.logger.info(
          { channel: 'sms', to: message.to, file: path },
          'SMS written to the local outbox (no Twilio settings)',
        );
        return { providerMessageId: `file:${relative(options.dir, path)}` };
      }, failure),
  };
};
