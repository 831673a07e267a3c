import assert from 'node:assert/strict';
import { escapeHtml } from '@esign/contracts';
import { composeEmail, composeSms } from '../../src/domain/message-content.js';
import { requestReminded, requestSent, signer } from '../support/events.js';

describe('notifier domain: what a signer reads', () => {
  const alice = signer({ signer_id: 'alice@example.com', email: 'alice@example.com' });
  const bob = signer({ signer_id: 'bob@example.com', email: 'bob@example.com' });

  it('names the site and the contracts and carries that signer’s Execution URL', () => {
    const email = composeEmail(requestSent([alice, bob]), alice.request_url);
    assert.equal(email.subject, 'Acme Lettings sent you "Tenancy agreement" and "Inventory" to sign');
    for (const part of [email.text, email.html]) {
      assert.match(part, /Acme Lettings/);
      assert.match(part, /Tenancy agreement/);
      assert.match(part, /Inventory/);
    }
    assert.ok(email.text.includes(alice.request_url));
    assert.ok(email.html.includes(escapeHtml(alice.request_url)));
  });

  it('says nothing about the other signers', () => {
    const email = composeEmail(requestSent([alice, bob]), alice.request_url);
    const sms = composeSms(requestSent([alice, bob]), alice.request_url);
    for (const part of [email.subject, email.text, email.html, sms]) {
      assert.ok(!part.includes(bob.signer_ref));
      assert.ok(!part.includes('bob@'));
      assert.ok(!part.includes(escapeHtml(bob.request_url)));
    }
  });

  it('escapes every client-supplied value in the HTML part', () => {
    const event = requestSent([alice], {
      site: { id: 7, name: '<script>alert("site")</script> & Co' },
      contracts: [{ id: 1, name: `<img src=x onerror='x'>` }],
    });
    const url = 'https://esign.example/sign?r=1&s=2&signature="><b>';
    const { html, text } = composeEmail(event, url);
    assert.ok(!html.includes('<script>'));
    assert.ok(!html.includes('<img'));
    assert.ok(!html.includes('"><b>'));
    assert.ok(html.includes('&lt;script&gt;alert(&quot;site&quot;)&lt;/script&gt; &amp; Co'));
    assert.ok(html.includes('&lt;img src=x onerror=&#39;x&#39;&gt;'));
    assert.ok(
      html.includes('href="https://esign.example/sign?r=1&amp;s=2&amp;signature=&quot;&gt;&lt;b&gt;"'),
    );
    // The plain-text part is not HTML: names appear as written.
    assert.ok(text.includes('<script>alert("site")</script> & Co'));
  });

  it('quotes the sender’s message (ADR 3380) in invitations and reminders, escaped, its lines kept', () => {
    const message = 'Hi Alice,\r\nsign by <b>Friday</b> & thanks.\u0007\n\n— Acme';
    for (const event of [
      requestSent([alice], { message }),
      { ...requestReminded([alice]), data: { ...requestSent([alice]).data, message } },
    ]) {
      const { text, html } = composeEmail(event, alice.request_url);
      assert.ok(
        text.includes(
          'A message from Acme Lettings:\n> Hi Alice,\n> sign by <b>Friday</b> & thanks. \n> \n> — Acme\n',
        ),
        text,
      );
      assert.ok(html.includes('<p>A message from Acme Lettings:</p>'));
      assert.ok(
        html.includes(
          '>Hi Alice,<br>sign by &lt;b&gt;Friday&lt;/b&gt; &amp; thanks. <br><br>— Acme</blockquote>',
        ),
        html,
      );
      assert.ok(!html.includes('<b>Friday'));
    }
    // None given: nothing of it, and never in an SMS (its length is the signer's cost).
    const plain = composeEmail(requestSent([alice]), alice.request_url);
    assert.ok(!plain.text.includes('A message from') && !plain.html.includes('blockquote'));
    assert.ok(!composeSms(requestSent([alice], { message }), alice.request_url).includes('Friday'));
  });

  it('uses the sender’s subject (ADR 3400) for invitations, after “Reminder:” for reminders, on one line', () => {
    const subject = 'Your lease for\r\nBcc: all@example.com 12 High St';
    const sent = composeEmail(requestSent([alice], { subject }), alice.request_url);
    assert.equal(sent.subject, 'Your lease for Bcc: all@example.com 12 High St');
    assert.ok(sent.html.includes('<title>Your lease for Bcc: all@example.com 12 High St</title>'));
    const reminded = { ...requestReminded([alice]), data: { ...requestSent([alice]).data, subject } };
    assert.equal(composeEmail(reminded, alice.request_url).subject, `Reminder: ${sent.subject}`);
    assert.equal(composeEmail(reminded, alice.request_url, 'fr').subject, `Rappel : ${sent.subject}`);
    // Clipped as the API bounds it, whatever an event holds; blank: the usual subject.
    assert.equal(composeEmail(requestSent([alice], { subject: 'x'.repeat(500) }), '').subject.length, 200);
    assert.equal(
      composeEmail(requestSent([alice], { subject: ' \n ' }), '').subject,
      'Acme Lettings sent you "Tenancy agreement" and "Inventory" to sign',
    );
  });

  it('invites a corrected address rather than reminding it (ADR 3420)', () => {
    const readdressed = {
      ...requestReminded([alice]),
      data: { ...requestSent([alice]).data, readdressed: true as const },
    };
    const email = composeEmail(readdressed, alice.request_url);
    assert.equal(email.subject, composeEmail(requestSent([alice]), alice.request_url).subject);
    assert.ok(!email.text.includes('Reminder') && !email.subject.includes('Reminder'));
    assert.equal(
      composeSms(readdressed, alice.request_url),
      composeSms(requestSent([alice]), alice.request_url),
    );
    assert.match(composeEmail(requestReminded([alice]), alice.request_url).subject, /^Reminder: /);
  });

  it('keeps a name with line breaks on one line, so it cannot forge headers or paragraphs', () => {
    const event = requestSent([alice], { site: { id: 7, name: 'Acme\r\nBcc: all@example.com' } });
    const { subject, text } = composeEmail(event, alice.request_url);
    assert.equal(subject.includes('\n') || subject.includes('\r'), false);
    assert.ok(text.includes('Acme Bcc: all@example.com has sent you'));
  });

  it('clips a long list of contracts in the subject but lists them all in the body', () => {
    const contracts = Array.from({ length: 6 }, (_, i) => ({ id: i + 1, name: `Schedule ${i + 1}` }));
    const { subject, text } = composeEmail(requestSent([alice], { contracts }), alice.request_url);
    assert.equal(subject, 'Acme Lettings sent you "Schedule 1", "Schedule 2" and 4 more to sign');
    for (const c of contracts) assert.ok(text.includes(`  - ${c.name}`));
    assert.match(text, /6 documents to sign/);
  });

  it('words a reminder as one and gives the deadline when there is one', () => {
    const event = {
      ...requestReminded([alice]),
      data: { ...requestReminded([alice]).data, expires_at: '2025-03-13T14:00:00.000Z' },
    };
    const { subject, text, html } = composeEmail(event, alice.request_url);
    assert.match(subject, /^Reminder: Acme Lettings is waiting for your signature/);
    assert.match(text, /Please sign before 2025-03-13 14:00 UTC\./);
    assert.match(html, /Please sign before 2025-03-13 14:00 UTC\./);
    assert.match(composeSms(event, alice.request_url), /^Reminder: /);
  });

  it('says it is the last day to sign in a reminder the requests service marked last_day (ADR 3470)', () => {
    const reminded = requestReminded([alice]);
    const at = (expiresAt: string, more: Record<string, unknown> = { last_day: true }) => ({
      ...reminded,
      occurred_at: '2025-03-12T14:00:05.000Z',
      data: { ...reminded.data, expires_at: expiresAt, ...more },
    });
    const warning = composeEmail(at('2025-03-13T14:00:00.000Z'), alice.request_url);
    assert.match(warning.subject, /^Last day to sign: Acme Lettings is waiting for your signature/);
    assert.match(warning.text, /Please sign before 2025-03-13 14:00 UTC\./);
    assert.match(
      composeEmail(at('2025-03-13T14:00:00.000Z'), alice.request_url, 'de').subject,
      /^Letzter Tag zum Unterschreiben: /,
    );
    assert.equal(
      composeEmail(
        at('2025-03-13T14:00:00.000Z', { subject: 'Lease renewal', last_day: true }),
        alice.request_url,
      ).subject,
      'Last day to sign: Lease renewal',
    );
    assert.match(
      composeEmail(at('2025-03-13T14:00:00.000Z', {}), alice.request_url).subject,
      /^Reminder: /,
      'not marked: the requests service decides, by its own clock',
    );
    assert.match(
      composeSms(at('2025-03-13T14:00:00.000Z'), alice.request_url),
      /^Last day to sign: Acme Lettings /,
    );
    assert.match(
      composeSms(at('2025-03-13T14:00:00.000Z'), alice.request_url, 'fr'),
      /^Dernier jour pour signer : /,
    );
    assert.match(
      composeSms(at('2025-03-13T14:00:00.000Z', {}), alice.request_url),
      /^Reminder: /,
      'SMS unmarked',
    );
    const invitation = { ...at('2025-03-13T14:00:00.000Z'), type: 'request.sent' as const };
    assert.match(
      composeEmail(invitation, alice.request_url).subject,
      /^Acme Lettings sent you/,
      'not an invitation',
    );
  });

  it('writes a short SMS with the whole URL, clipping names instead', () => {
    const event = requestSent([alice], {
      site: { id: 7, name: 'A'.repeat(80) },
      contracts: [
        { id: 1, name: 'B'.repeat(80) },
        { id: 2, name: 'Annex' },
      ],
    });
    const url = `https://esign.example/sign?r=1&s=2&signature=${'x'.repeat(60)}`;
    const sms = composeSms(event, url);
    assert.ok(sms.endsWith(`Sign here: ${url}`));
    assert.ok(sms.length < 240);
    assert.match(sms, /and 1 more to sign/);
  });
});
