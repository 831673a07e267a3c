import assert from 'node:assert/strict';
import { composeEmail, composeSms } from '../../src/domain/message-content.js';
import { brandEmail } from '../../src/domain/branded-message.js';
import { mailOptions, mailSender } from '../../src/adapters/smtp/mail-options.js';
import { requestSent, signer } from '../support/events.js';

const BRANDING = {
  accent_color: '#005f73',
  reply_to: 'lettings@harbour.example',
  email_footer: 'Harbour Lettings Ltd\n4 Quay Street <Portsmouth>',
  logo_path: 'sign/logo/7/abc.png',
};

/** Branding per Site in messages (ADR 2301): logo, accent, footer and Reply-To; neutral without. */
describe('branded e-mails and SMS', () => {
  it('adds the logo (resolved against the signer’s link), the accent, the footer and Reply-To', () => {
    const alice = signer();
    const event = requestSent([alice], { site: { id: 7, name: 'Harbour Lettings' }, branding: BRANDING });
    const email = brandEmail(
      composeEmail(event, alice.request_url),
      event.data.branding,
      alice.request_url,
      'Harbour Lettings',
    );
    assert.ok(
      email.html.includes('<img src="https://esign.example/sign/logo/7/abc.png" alt="Harbour Lettings"'),
    );
    assert.ok(email.html.includes('background:#005f73'));
    assert.ok(!email.html.includes('#1a56db'));
    assert.ok(email.html.includes('Harbour Lettings Ltd<br>4 Quay Street &lt;Portsmouth&gt;'));
    assert.ok(email.text.endsWith('--\nHarbour Lettings Ltd\n4 Quay Street <Portsmouth>\n'));
    assert.equal(email.replyTo, 'lettings@harbour.example');
    assert.match(email.subject, /^Harbour Lettings sent you/);
    const options = mailOptions(
      { to: alice.email!, idempotencyKey: 'k', ...email },
      mailSender('E-sign <no-reply@esign.example>'),
    );
    assert.deepEqual(options.replyTo, { name: '', address: 'lettings@harbour.example' });
    assert.match(composeSms(event, alice.request_url), /^Harbour Lettings sent you/);
  });

  it('leaves a message without branding exactly as composed, with no Reply-To', () => {
    const alice = signer();
    const event = requestSent([alice]);
    const plain = composeEmail(event, alice.request_url);
    const email = brandEmail(plain, event.data.branding, alice.request_url, 'Acme Lettings');
    assert.deepEqual(email, plain);
    assert.equal(
      mailOptions({ to: alice.email!, idempotencyKey: 'k', ...email }, mailSender('x@esign.example')).replyTo,
      undefined,
    );
  });

  it('never puts a logo URL that is not http(s) into the e-mail', () => {
    const alice = signer();
    const event = requestSent([alice], { branding: { ...BRANDING, logo_path: 'javascript:alert(1)' } });
    const email = brandEmail(
      composeEmail(event, alice.request_url),
      event.data.branding,
      alice.request_url,
      'Acme',
    );
    assert.ok(!email.html.includes('<img'));
  });
});
