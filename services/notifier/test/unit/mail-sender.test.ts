import assert from 'node:assert/strict';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { limiterMessageQuota } from '../../src/adapters/quota/limiter-message-quota.js';
import { mailOptions, mailSender, messageIdFor } from '../../src/adapters/smtp/mail-options.js';
import type { EmailMessage } from '../../src/ports/email-sender.js';

const message: EmailMessage = {
  to: 'alice@example.com',
  subject: 'Acme sent you "Lease" to sign',
  text: 'Sign here',
  html: '<p>Sign here</p>',
  idempotencyKey: 'event-1/sg_1/email',
};

const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

/** The From header (unfolded) and the envelope's sender nodemailer makes of `options`. */
const rendered = async (options: SendMailOptions) => {
  const info = await composer.sendMail(options);
  const head = (info.message as Buffer)
    .toString('utf8')
    .split('\n\n')[0]!
    .replace(/\n[ \t]+/g, ' ');
  return { header: /^From: (.*)$/m.exec(head)?.[1], envelope: info.envelope.from };
};

describe('notifier adapter: the From parsed once (ADR 2880)', () => {
  const froms = [
    'Acme via E-signature <no-reply@esign.example>',
    'no-reply@esign.example',
    '"Acme, Inc." <no-reply@esign.example>',
    'Société Générale de Signature <no-reply@esign.example>',
    'E-sign <No-Reply@ESIGN.Example>',
    'Bücher <no-reply@bücher.example>',
  ];
  for (const from of froms) {
    it(`gives the same From header and envelope as the text itself: ${from}`, async () => {
      const options = mailOptions(message, mailSender(from));
      assert.equal(typeof options.from, 'object');
      const parsedOnce = await rendered(options);
      const parsedBySender = await rendered({ ...options, from });
      assert.ok(parsedOnce.header !== undefined && parsedOnce.header !== '');
      assert.deepEqual(parsedOnce, parsedBySender);
    });
  }

  it('leaves a value that is not one mailbox as text, for nodemailer to treat as before', () => {
    for (const from of [
      'a@esign.example, b@esign.example',
      'Team: a@esign.example, b@esign.example;',
      'Team: a@esign.example;',
      '',
    ]) {
      assert.equal(mailSender(from).from, from);
    }
  });

  it('takes the Message-ID domain from the address, lower case', () => {
    const id = mailOptions(message, mailSender('E-sign <No-Reply@ESIGN.Example>')).messageId;
    assert.match(id ?? '', /^<[0-9a-f]{40}@esign\.example>$/);
  });
});

describe('notifier: the digests that name a message and a recipient', () => {
  it('a Message-ID is the first 40 hex digits of the SHA-256 of its key, as every release made it', () => {
    assert.equal(
      messageIdFor('abc', 'esign.example'),
      '<ba7816bf8f01cfea414140de5dae2223b00361a3@esign.example>',
    );
  });

  it("a recipient's quota bucket is the SHA-256 of the address, trimmed and lower case, as every release named it", async () => {
    const keys: string[] = [];
    const quota = limiterMessageQuota({
      limit: (charges) => () => {
        keys.push(...charges.map((c) => c.key));
        return Promise.resolve({ _tag: 'Allowed', buckets: [], status: [] });
      },
      perDay: { site: { email: 10, sms: 10 }, recipient: { email: 10, sms: 10 } },
    });
    await quota({ siteId: 41, channel: 'email', recipient: ' Victim@Example.com ' })();
    assert.deepEqual(keys, ['41', '_76M_0-fjYsQlGD5dcND6ULNTD7RkTI-']);
  });
});
