import type { AddressInfo } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it: the envelope and the parsed MIME. */
export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly raw: string;
  readonly mail: Email;
  /** `performance.now()` when the server answered 250 to the DATA: the message was accepted. */
  readonly acceptedAt: number;
}

export interface SmtpDouble {
  readonly port: number;
  readonly url: string;
  readonly received: ReceivedMail[];
  /** Resolves once `count` messages have been accepted in all; rejects after `timeoutMs`. */
  waitForCount(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Answers RCPT TO for `address` with this SMTP reply. */
  refuseRecipient(address: string, code: number, message: string): void;
  /** Answers the end of DATA for mail to `address` with this SMTP reply. */
  refuseData(address: string, code: number, message: string): void;
  close(): Promise<void>;
}

const smtpError = (code: number, message: string) =>
  Object.assign(new Error(message), { responseCode: code });

/**
 * A real SMTP server (smtp-server, the library behind many test mail catchers) on a free
 * port: what the notifier's SMTP adapter, the end-to-end suite and the benchmark send to.
 */
export const startSmtpServer = async (): Promise<SmtpDouble> => {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const rcptRefusals = new Map<string, { code: number; message: string }>();
  const dataRefusals = new Map<string, { code: number; message: string }>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = rcptRefusals.get(address.address);
      callback(refusal === undefined ? undefined : smtpError(refusal.code, refusal.message));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((a) => a.address);
        const refusal = to.map((a) => dataRefusals.get(a)).find((r) => r !== undefined);
        if (refusal !== undefined) return callback(smtpError(refusal.code, refusal.message));
        const raw = Buffer.concat(chunks);
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        // Accept first, as a mail catcher does; the parsed message is listed once ready.
        const acceptedAt = performance.now();
        callback();
        PostalMime.parse(raw)
          .then((mail) => {
            received.push({ from, to, raw: raw.toString('utf8'), mail, acceptedAt });
            for (const wake of waiters) wake();
          })
          .catch(() => undefined);
      });
    },
  });
  // A client that dies mid-session (a SIGKILLed notifier) resets its connection: that is
  // the client's fault, not the server's, and must not crash the test.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitForCount: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          finish();
          resolve(received);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`${received.length} of ${count} messages within ${timeoutMs} ms`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    refuseRecipient: (address, code, message) => rcptRefusals.set(address, { code, message }),
    refuseData: (address, code, message) => dataRefusals.set(address, { code, message }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
