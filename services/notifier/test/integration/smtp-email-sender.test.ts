import assert from 'node:assert/strict';
import net from 'node:net';
import * as E from 'fp-ts/lib/Either.js';
import { smtpEmailSender } from '../../src/adapters/smtp/smtp-email-sender.js';
import type { EmailSender, EmailMessage } from '../../src/ports/email-sender.js';
import { startSmtpServer, type SmtpDouble } from '@esign/testing';

const message = (to: string, key = `k-${to}`): EmailMessage => ({
  to,
  subject: 'Acme sent you "Lease" to sign',
  text: 'Sign here: https://esign.example/sign?r=1&s=2&signature=abc',
  html: '<p><a href="https://esign.example/sign?r=1&amp;s=2&amp;signature=abc">Sign</a></p>',
  idempotencyKey: key,
});

describe('notifier adapter: SMTP e-mail sender (real SMTP server)', () => {
  let server: SmtpDouble;
  let smtp: ReturnType<typeof smtpEmailSender>;
  let sender: EmailSender;

  before(async () => {
    server = await startSmtpServer();
    server.refuseRecipient('gone@example.com', 550, '5.1.1 No such user');
    server.refuseRecipient('full@example.com', 452, '4.2.2 Mailbox full');
    server.refuseData('spam@example.com', 554, '5.7.1 Message rejected');
    smtp = smtpEmailSender({
      url: server.url,
      from: 'Acme via E-signature <no-reply@esign.example>',
      timeoutMs: 5_000,
    });
    sender = smtp.sender;
  });
  after(async () => {
    await smtp.close();
    await server.close();
  });

  it('hands the message over with a text and an HTML part and a Message-ID stable per message', async () => {
    const result = await sender.send(message('alice@example.com', 'event-1/sg_1/email'))();
    assert.ok(E.isRight(result));
    const [received] = server.received;
    assert.deepEqual(received?.to, ['alice@example.com']);
    assert.equal(received?.from, 'no-reply@esign.example');
    assert.equal(received?.mail.subject, 'Acme sent you "Lease" to sign');
    assert.match(received?.mail.text ?? '', /signature=abc/);
    assert.match(
      received?.mail.html ?? '',
      /href="https:\/\/esign\.example\/sign\?r=1&amp;s=2&amp;signature=abc"/,
    );
    assert.equal(result.right.providerMessageId, received?.mail.messageId);
    assert.match(received?.mail.messageId ?? '', /^<[0-9a-f]{40}@esign\.example>$/);
    assert.ok(received?.raw.includes('Auto-Submitted: auto-generated'));

    await sender.send(message('alice@example.com', 'event-1/sg_1/email'))();
    assert.equal(server.received[1]?.mail.messageId, received?.mail.messageId);
  });

  it('carries lines that start with a dot, and the Message-ID once', async () => {
    const before = server.received.length;
    const text = 'Terms:\n.\n.hidden line\n..two dots\nend';
    const result = await sender.send({ ...message('dots@example.com'), text })();
    assert.ok(E.isRight(result));
    const received = server.received[before];
    assert.equal(received?.mail.text?.trim(), text);
    assert.equal(received?.raw.match(/^Message-ID:/gim)?.length, 1);
    assert.deepEqual(received?.to, ['dots@example.com']);
  });

  it('puts the recipient in the envelope as given, so a malformed one is refused, not rewritten', async () => {
    const before = server.received.length;
    const result = await sender.send(message('a@b>c.example'))();
    assert.ok(E.isLeft(result));
    assert.equal(result.left._tag, 'Permanent');
    assert.match(result.left.error, /501/);
    assert.equal(server.received.length, before);
  });

  it('reports a 5xx for the recipient or the message as permanent, a 4xx as transient', async () => {
    const gone = await sender.send(message('gone@example.com'))();
    const full = await sender.send(message('full@example.com'))();
    const spam = await sender.send(message('spam@example.com'))();
    assert.deepEqual(
      [gone, full, spam].map((r) => (E.isLeft(r) ? r.left._tag : 'Accepted')),
      ['Permanent', 'Transient', 'Permanent'],
    );
    assert.match(E.isLeft(gone) ? gone.left.error : '', /550 5\.1\.1 No such user/);
  });

  it('reports a refused connection as transient', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const nowhere = smtpEmailSender({
      url: `smtp://127.0.0.1:${port}`,
      from: 'no-reply@esign.example',
      timeoutMs: 2_000,
    });
    const result = await nowhere.sender.send(message('alice@example.com'))();
    await nowhere.close();
    assert.ok(E.isLeft(result));
    assert.equal(result.left._tag, 'Transient');
    assert.match(result.left.error, /ECONNREFUSED/);
  });
});
