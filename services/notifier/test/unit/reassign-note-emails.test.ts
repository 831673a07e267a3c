import assert from 'node:assert/strict';
import { SENDER_REF, type NoticeReassigned, type RequestReminded } from '@esign/contracts';
import { composeEmail } from '../../src/domain/message-content.js';
import { requestReminded, requestSent, signer } from '../support/events.js';

/**
 * ADR 3630: whom a signer asked to sign in their place is told who asked, and reads their
 * note; the creating user reads the note too.
 */
describe('notifier domain: a reassigning signer’s note (ADR 3630)', () => {
  const carol = signer({ signer_id: 'carol@example.com', email: 'carol@example.com' });
  /** Carol's invitation, as the requests service writes it when Alice asked her. */
  const asked = (extra: Partial<RequestReminded['data']>): RequestReminded => {
    const event = requestReminded([carol]);
    return { ...event, data: { ...event.data, readdressed: true, asked_by: 'alice@example.com', ...extra } };
  };

  it('says who asked before the invitation, then quotes their note before the Site’s message', () => {
    const email = composeEmail(
      asked({ note: 'I am away until March.\nPlease sign for the team.', message: 'Welcome aboard.' }),
      carol.request_url,
    );
    const plain = composeEmail(
      { ...requestReminded([carol]), data: { ...requestReminded([carol]).data, readdressed: true } },
      carol.request_url,
    );
    assert.equal(email.subject, plain.subject, 'the invitation’s own subject');
    assert.ok(
      email.text.includes(
        [
          'Hello,',
          '',
          'alice@example.com asked you to sign in their place.',
          '',
          'Acme Lettings has sent you 2 documents to sign:',
          '  - Tenancy agreement',
          '  - Inventory',
          '',
          'A note from alice@example.com:',
          '> I am away until March.',
          '> Please sign for the team.',
          '',
          'A message from Acme Lettings:',
          '> Welcome aboard.',
        ].join('\n'),
      ),
      email.text,
    );
    assert.match(email.html, /<p>alice@example\.com asked you to sign in their place\.<\/p>/);
    assert.match(
      email.html,
      /<blockquote[^>]*>I am away until March\.<br>Please sign for the team\.<\/blockquote>/,
    );
    assert.doesNotMatch(plain.text, /asked you|A note from/, 'an invitation nobody asked for says neither');
  });

  it('without a note says who asked alone; escapes the note and keeps it to its bounds', () => {
    const bare = composeEmail(asked({}), carol.request_url);
    assert.match(bare.text, /alice@example\.com asked you to sign in their place\./);
    assert.doesNotMatch(bare.text, /A note from/);

    const hostile = composeEmail(
      asked({
        asked_by: 'alice@example.com\r\nBcc: x@example.com',
        note: `<b>hi</b>\u0007${'y'.repeat(1200)}`,
      }),
      carol.request_url,
    );
    assert.match(hostile.text, /alice@example\.com Bcc: x@example\.com asked you/, 'on one line');
    assert.match(hostile.html, /&lt;b&gt;hi&lt;\/b&gt; y/);
    assert.doesNotMatch(hostile.html, /<b>hi/);
    const quoted = hostile.text.split('\n').find((line) => line.startsWith('> <b>'))!;
    assert.ok(quoted.length <= 2 + 1000, 'clipped to the API’s bound');
  });

  it('is in the new signer’s language', () => {
    const note = { note: 'Bitte unterschreiben.' };
    const de = composeEmail(asked(note), carol.request_url, 'de');
    assert.match(
      de.text,
      /alice@example\.com hat Sie gebeten, an seiner oder ihrer Stelle zu unterschreiben\./,
    );
    assert.match(de.text, /Eine Nachricht von alice@example\.com:\n> Bitte unterschreiben\./);
    assert.match(composeEmail(asked(note), carol.request_url, 'fr').text, /Un mot de alice@example\.com :/);
  });

  it('gives the creating user the note on one line beside who asked whom', () => {
    const sender = signer({ ref: SENDER_REF, signer_id: 'owner@acme.example', email: 'owner@acme.example' });
    const page = 'https://esign.example/app/requests/rq_1';
    const base = requestSent([{ ...sender, request_url: page }]);
    const told = (note?: string): NoticeReassigned => ({
      ...base,
      type: 'notice.reassigned',
      data: {
        ...base.data,
        reassigned_by: 'alice@example.com',
        reassigned_to: 'carol@example.com',
        ...(note !== undefined && { note }),
      },
    });
    const email = composeEmail(told('I am away.\nSorry!'), page, undefined, SENDER_REF);
    assert.match(email.text, /\n\nA note from alice@example\.com: I am away\. Sorry!\n\n/);
    assert.match(email.html, /<p>A note from alice@example\.com: I am away\. Sorry!<\/p>/);
    assert.doesNotMatch(composeEmail(told(), page, undefined, SENDER_REF).text, /A note from/);
  });
});
