import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import PostalMime from 'postal-mime';
import { testLogger } from '@esign/testing';
import { emlRenderer } from '../../src/adapters/smtp/mail-options.js';
import {
  localEmailOutbox,
  localSmsOutbox,
  prepareLocalOutbox,
} from '../../src/adapters/local-outbox/local-outbox.js';

describe('notifier adapter: local outbox (files, for a machine without SMTP or Twilio)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'notifier-outbox-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('writes each e-mail as an .eml file a mail client opens', async () => {
    const sender = localEmailOutbox({
      dir,
      render: emlRenderer('E-signature <no-reply@esign.localhost>'),
      logger: testLogger(),
    });
    const result = await sender.send({
      to: 'alice@example.com',
      subject: 'Acme sent you "Lease" to sign',
      text: 'Sign here: https://esign.example/s?x=1',
      html: '<p>Sign</p>',
      idempotencyKey: 'e/s/email',
    })();
    assert.ok(E.isRight(result));
    const files = await readdir(join(dir, 'email'));
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^\d{8}T\d{6}Z-[0-9a-f]{12}\.eml$/);
    assert.equal(result.right.providerMessageId, `file:email/${files[0]}`);
    const mail = await PostalMime.parse(await readFile(join(dir, 'email', files[0]!)));
    assert.equal(mail.to?.[0]?.address, 'alice@example.com');
    assert.equal(mail.subject, 'Acme sent you "Lease" to sign');
    assert.match(mail.text ?? '', /https:\/\/esign\.example\/s\?x=1/);
  });

  it('writes each SMS as a text file', async () => {
    const sender = localSmsOutbox({ dir, logger: testLogger() });
    const result = await sender.send({
      to: '+12025550111',
      body: 'Sign here: https://esign.example/s?x=2',
      idempotencyKey: 'e/s/sms',
    })();
    assert.ok(E.isRight(result));
    const [file] = await readdir(join(dir, 'sms'));
    const content = await readFile(join(dir, 'sms', file!), 'utf8');
    assert.match(content, /^To: \+12025550111\n/);
    assert.match(content, /\n\nSign here: https:\/\/esign\.example\/s\?x=2\n$/);
  });

  it('stops start-up with a clear line when the folder cannot be made', async () => {
    const blocker = join(dir, 'not-a-folder');
    await writeFile(blocker, 'a file where the outbox should be');
    await assert.rejects(
      prepareLocalOutbox(join(blocker, 'outbox')),
      /NOTIFIER_OUTBOX_DIR .*not-a-folder\/outbox cannot be written/,
    );
  });
});
