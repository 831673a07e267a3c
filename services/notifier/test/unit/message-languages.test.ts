import assert from 'node:assert/strict';
import {
  DomainEvent,
  SUPPORTED_LOCALES,
  type NoticeCompleted,
  type NoticeCancelled,
  type NoticeDeclined,
  type NoticeExpired,
  type NoticeReassigned,
  type NoticeReplaced,
  type SignerCodeRequested,
} from '@esign/contracts';
import * as E from 'fp-ts/lib/Either.js';
import { composeEmail, composeSms } from '../../src/domain/message-content.js';
import type { NoticeEvent } from '../../src/domain/delivery.js';
import { requestReminded, requestSent, signer } from '../support/events.js';

describe('notifier domain: messages in the signer’s language (issue 23)', () => {
  const ana = signer({ signer_id: 'ana@example.com', email: 'ana@example.com', locale: 'es' });
  const sent = requestSent([ana], { expires_at: '2025-03-20T18:00:00.000Z' });

  it('writes the e-mail and the SMS in Spanish for a signer whose locale is es', () => {
    const email = composeEmail(sent, ana.request_url, 'es');
    assert.equal(email.subject, 'Acme Lettings le ha enviado "Tenancy agreement" y "Inventory" para firmar');
    assert.match(email.text, /^Hola:\n\nAcme Lettings le ha enviado 2 documentos para firmar:/);
    assert.match(email.text, /Revise y firme aquí:/);
    assert.match(email.text, /Firme antes del 2025-03-20 18:00 UTC\./);
    assert.match(email.text, /Este enlace es personal: no lo reenvíe\./);
    assert.match(email.html, /<html lang="es" dir="ltr">/);
    assert.match(email.html, />Revisar y firmar</);
    assert.ok(email.text.includes(ana.request_url));
    assert.equal(
      composeSms(sent, ana.request_url, 'es'),
      `Acme Lettings le ha enviado "Tenancy agreement" y 1 más para firmar. Firme aquí: ${ana.request_url}`,
    );
  });

  it('words a reminder in the signer’s language too', () => {
    const email = composeEmail(requestReminded([ana]), ana.request_url, 'de');
    assert.match(email.subject, /^Erinnerung: Acme Lettings wartet auf Ihre Unterschrift/);
    assert.match(email.html, /<html lang="de" dir="ltr">/);
  });

  it('falls back to English for events without a locale (sent before it existed) and for unknown ones', () => {
    for (const locale of [undefined, 'ja', 'not a tag']) {
      const email = composeEmail(sent, ana.request_url, locale);
      assert.equal(
        email.subject,
        'Acme Lettings sent you "Tenancy agreement" and "Inventory" to sign',
        String(locale),
      );
      assert.match(email.html, /<html lang="en" dir="ltr">/);
    }
  });

  it('reads a region of a supported language as the language', () => {
    assert.match(composeEmail(sent, ana.request_url, 'pt-BR').subject, /enviou .* para você assinar$/);
  });

  it('keeps decoding a request.sent whose signers carry no locale', () => {
    const { locale: _none, ...old } = ana;
    const decoded = DomainEvent.decode(JSON.parse(JSON.stringify(requestSent([old]))));
    assert.ok(E.isRight(decoded));
  });

  it('writes every notice in every supported language, each distinct from English, without losing values', () => {
    const base = requestSent([ana]);
    const notices: NoticeEvent[] = [
      base,
      requestReminded([ana]),
      {
        ...base,
        type: 'signer.code_requested',
        data: { ...base.data, code: '042917', code_expires_at: '2025-03-01T10:10:00.000Z' },
      } satisfies SignerCodeRequested,
      {
        ...base,
        type: 'notice.completed',
        data: { ...base.data, copy_expires_at: '2025-03-31T10:00:00.000Z' },
      } satisfies NoticeCompleted,
      {
        ...base,
        type: 'notice.declined',
        data: { ...base.data, declined_by: 'bob@example.com', reason: 'Wrong rent' },
      } satisfies NoticeDeclined,
      {
        ...base,
        type: 'notice.cancelled',
        data: { ...base.data, reason: 'Wrong rent' },
      } satisfies NoticeCancelled,
      { ...base, type: 'notice.expired' } satisfies NoticeExpired,
      { ...base, type: 'notice.replaced' } satisfies NoticeReplaced,
      {
        ...base,
        type: 'notice.reassigned',
        data: { ...base.data, reassigned_by: 'ana@example.com', reassigned_to: 'bea@example.com' },
      } satisfies NoticeReassigned,
    ];
    for (const notice of notices) {
      const english = composeEmail(notice, ana.request_url, 'en');
      for (const locale of SUPPORTED_LOCALES.filter((l) => l !== 'en')) {
        const email = composeEmail(notice, ana.request_url, locale);
        const sms = composeSms(notice, ana.request_url, locale);
        assert.notEqual(email.subject, english.subject, `${notice.type} ${locale}`);
        assert.notEqual(email.text, english.text, `${notice.type} ${locale}`);
        assert.notEqual(sms, composeSms(notice, ana.request_url, 'en'), `${notice.type} ${locale}`);
        assert.match(email.subject, /Acme Lettings|Tenancy agreement|042917/, `${notice.type} ${locale}`);
        assert.ok(!/[{}]/.test(email.text + sms), `${notice.type} ${locale}: a placeholder left unfilled`);
      }
    }
  });
});
