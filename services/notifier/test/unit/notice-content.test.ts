import assert from 'node:assert/strict';
import {
  SENDER_REF,
  type NoticeCancelled,
  type NoticeCompleted,
  type NoticeDeclined,
  type NoticeExpired,
  type NoticeReassigned,
  type NoticeReplaced,
  type SignerCodeRequested,
} from '@esign/contracts';
import { composeEmail, composeSms } from '../../src/domain/message-content.js';
import { planDeliveries } from '../../src/domain/delivery.js';
import { requestSent, signer } from '../support/events.js';

describe('notifier domain: codes, completion and decline notices (issue 20)', () => {
  const alice = signer({ signer_id: 'alice@example.com', email: 'alice@example.com' });
  const base = requestSent([alice]);
  /** Each message an event asks for: whether it is sent, to whom, by which channel. */
  const planned = (event: Parameters<typeof planDeliveries>[0]) =>
    planDeliveries(event).map((t) => [t._tag, t.key.signerRef, t.key.channel]);
  /** A signer reached by text alone. */
  const sms = signer({
    email: null,
    mobile_number: '2025550143',
    send_to: { email: false, mobile_number: true },
  });

  it('a one-time code: the code and its expiry, no link; by SMS too', () => {
    const event: SignerCodeRequested = {
      ...base,
      type: 'signer.code_requested',
      data: { ...base.data, code: '042917', code_expires_at: '2025-03-01T10:10:00.000Z' },
    };
    const email = composeEmail(event, alice.request_url);
    assert.match(email.subject, /042917/);
    assert.match(email.text, /until 2025-03-01 10:10 UTC/);
    assert.ok(!email.text.includes(alice.request_url), 'the code e-mail carries no link');
    assert.match(composeSms(event, alice.request_url), /^042917 is your code/);
  });

  it('completed: a link to the signer’s copy and until when it works', () => {
    const copy = 'https://esign.example/sign/copy?r=rq_1&s=x&e=1&signature=k1.y';
    const event: NoticeCompleted = {
      ...base,
      type: 'notice.completed',
      data: {
        ...base.data,
        signers: [{ ...alice, request_url: copy }],
        copy_expires_at: '2025-03-31T10:00:00.000Z',
      },
    };
    assert.deepEqual(
      planDeliveries(event).map((t) => t._tag),
      ['Send'],
    );
    const email = composeEmail(event, copy);
    assert.match(email.subject, /^Completed: "Tenancy agreement" and "Inventory"/);
    assert.ok(email.text.includes(copy));
    assert.match(email.text, /until 2025-03-31 10:00 UTC/);
  });

  it('declined: who declined and why, with the reason on one line and escaped in HTML', () => {
    const event: NoticeDeclined = {
      ...base,
      type: 'notice.declined',
      data: { ...base.data, declined_by: 'bob@example.com', reason: 'The <b>rent</b>\nis wrong' },
    };
    const email = composeEmail(event, alice.request_url);
    assert.match(email.text, /bob@example\.com declined to sign/);
    assert.match(email.text, /Their reason: The <b>rent<\/b> is wrong/);
    assert.ok(!email.html.includes('<b>rent'));
  });

  it('ADR 3500: cancelled: by whom and why, no link; by SMS too, without the reason', () => {
    const event: NoticeCancelled = {
      ...base,
      type: 'notice.cancelled',
      data: { ...base.data, signers: [alice, sms], reason: 'Superseded by\nthe <i>new</i> lease' },
    };
    assert.deepEqual(planned(event), [
      ['Send', alice.signer_ref, 'email'],
      ['Send', sms.signer_ref, 'sms'],
    ]);
    const email = composeEmail(event, alice.request_url);
    assert.match(email.subject, /^Cancelled: "Tenancy agreement" and "Inventory"$/);
    assert.match(
      email.text,
      /Acme Lettings cancelled the request to sign "Tenancy agreement" and "Inventory"\./,
    );
    assert.match(email.text, /The reason given: Superseded by the <i>new<\/i> lease/);
    assert.ok(
      !email.text.includes(alice.request_url) && !email.html.includes(alice.request_url),
      'no dead link',
    );
    assert.ok(!email.html.includes('<i>new'));
    const unexplained = composeEmail(
      { ...event, data: { ...base.data, signers: [alice] } },
      alice.request_url,
    );
    assert.ok(!unexplained.text.includes('reason'), unexplained.text);
    assert.equal(
      composeSms(event, sms.request_url),
      'Acme Lettings cancelled the request to sign "Tenancy agreement" and 1 more. Nothing more is needed from you.',
    );
  });

  it('ADR 3550: replaced: someone else signs in their place, nothing more is needed, no link; by SMS too', () => {
    const event: NoticeReplaced = {
      ...base,
      type: 'notice.replaced',
      data: { ...base.data, signers: [sms] },
    };
    assert.deepEqual(planned(event), [['Send', sms.signer_ref, 'sms']]);
    assert.equal(
      composeSms(event, sms.request_url),
      'Acme Lettings asked someone else to sign "Tenancy agreement" and 1 more in your place. Nothing more is needed from you.',
    );
    const email = composeEmail({ ...event, data: { ...base.data, signers: [alice] } }, alice.request_url);
    assert.equal(email.subject, 'No longer needed: "Tenancy agreement" and "Inventory"');
    assert.match(
      email.text,
      /Acme Lettings asked someone else to sign "Tenancy agreement" and "Inventory" in your place, so your signing link no longer works\./,
    );
    assert.match(
      email.text,
      /Nothing more is needed from you\. If you think this is a mistake, contact the sender\./,
    );
    assert.ok(
      !email.text.includes(alice.request_url) && !email.html.includes(alice.request_url),
      'no dead link',
    );
  });

  it('ADR 2003: the creator’s notices are worded for the sender and link the Request’s page, by e-mail only', () => {
    const page = 'https://esign.example/app/requests/rq_1';
    const sender = {
      signer_id: 'owner@example.com',
      signer_ref: SENDER_REF,
      email: 'owner@example.com',
      mobile_number: '2025550143',
      send_to: { email: true, mobile_number: false },
      request_url: page,
    };
    const completed: NoticeCompleted = {
      ...base,
      type: 'notice.completed',
      data: { ...base.data, signers: [sender], copy_expires_at: '2025-03-31T10:00:00.000Z' },
    };
    assert.deepEqual(planned(completed), [['Send', SENDER_REF, 'email']]);
    const done = composeEmail(completed, page, undefined, SENDER_REF);
    assert.match(done.subject, /^Completed: /);
    assert.match(done.text, /which you sent for signing from /);
    assert.ok(done.text.includes(page));
    assert.ok(!/until|keep the file/.test(done.text), 'no copy-link expiry for the sender');
    const declined: NoticeDeclined = {
      ...base,
      type: 'notice.declined',
      data: { ...base.data, signers: [sender], declined_by: 'bob@example.com', reason: 'Too\nexpensive' },
    };
    const told = composeEmail(declined, page, undefined, SENDER_REF);
    assert.match(told.text, /bob@example\.com declined to sign .* which you sent for signing from /);
    assert.match(told.text, /Their reason: Too expensive/);
    assert.ok(told.html.includes(`href="${page}"`));
    // ADR 3520: a sent Request expired unsigned; told to the creating user alone.
    const expired: NoticeExpired = {
      ...base,
      type: 'notice.expired',
      data: { ...base.data, signers: [sender] },
    };
    assert.deepEqual(planned(expired), [['Send', SENDER_REF, 'email']]);
    const lapsed = composeEmail(expired, page, undefined, SENDER_REF);
    assert.equal(lapsed.subject, 'Expired unsigned: "Tenancy agreement" and "Inventory"');
    assert.match(
      lapsed.text,
      /"Tenancy agreement" and "Inventory", which you sent for signing from Acme Lettings, expired before everyone signed: its signing links no longer work\./,
    );
    assert.match(lapsed.text, /To send it again, open the request and copy it to a new draft\./);
    assert.ok(lapsed.text.includes(page) && lapsed.html.includes(`href="${page}"`));
    // ADR 3560: a signer asked someone else to sign; told to the creating user alone.
    const reassigned: NoticeReassigned = {
      ...base,
      type: 'notice.reassigned',
      data: {
        ...base.data,
        signers: [sender],
        reassigned_by: 'alice@example.com',
        reassigned_to: 'carol@example.com',
      },
    };
    assert.deepEqual(planned(reassigned), [['Send', SENDER_REF, 'email']]);
    const passed = composeEmail(reassigned, page, undefined, SENDER_REF);
    assert.equal(passed.subject, 'Someone else will sign: "Tenancy agreement" and "Inventory"');
    assert.match(
      passed.text,
      /alice@example\.com asked carol@example\.com to sign "Tenancy agreement" and "Inventory" in their place, which the request you sent from Acme Lettings allowed\. carol@example\.com has been e-mailed their own link\./,
    );
    assert.ok(passed.text.includes(page) && passed.html.includes(`href="${page}"`));
  });
});
