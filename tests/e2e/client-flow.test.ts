// The spec's client flow through the gateway only, against the whole system as `npm start`
// runs it: four built processes, real Postgres and RabbitMQ, an SMTP server and a Twilio
// API stand-in started here, tenants made with auth's admin CLI. The failure paths a client
// meets are in client-flow-failures.test.ts.
import assert from 'node:assert/strict';
import { eventually, type EsignSystem } from '@esign/testing';
import { clientFlowFixture } from './support/client-flow-fixture.js';
import { conformingFetch } from './support/conformance.js';
import {
  agreementRequest,
  clientRef,
  executionUrlIn,
  mailsTo,
  smsTo,
  unique,
  uniqueMobile,
  waitForMail,
  waitForSms,
  ok,
  type ClientOf,
} from './support/flow.js';
import { signAt } from './support/signer.js';

describe('end to end through the gateway: the client flow', function () {
  this.timeout(120_000);
  const flow = clientFlowFixture('e2e_flow');
  const { create, get, list } = flow;
  let system: EsignSystem;
  let acme: ClientOf;
  let template: number;
  before(() => ({ system, acme, template } = flow.ctx));

  it('token → template → create → send → e-mail and SMS → sign → redirect → completed → listed', async () => {
    const email = `alice-${unique()}@example.com`;
    const mobile = uniqueMobile();
    const e164 = `+1${mobile}`;

    const message = 'Please sign before the start date.\nThank you, Acme';
    const created = await create(
      agreementRequest(
        template,
        { email, mobile },
        { message, title: 'Agreement with Alice', subject: 'Your agreement with Acme, to sign' },
      ),
    );
    assert.equal(created.state, 'draft');
    assert.equal(created.message, message, 'the message to the signers (ADR 3380)');
    assert.equal(created.title, 'Agreement with Alice', 'the sender’s own name for it (ADR 3390)');
    assert.equal(created.subject, 'Your agreement with Acme, to sign', 'the e-mails’ subject (ADR 3400)');
    assert.equal(created.site_id, acme.site);
    const [alice, mobileSigner] = created.signers;
    assert.ok(alice && mobileSigner);
    assert.equal(alice.email, email);
    assert.equal(mobileSigner.mobile_number, `1${mobile}`, 'a 10-digit signer_id is attached as the mobile');
    assert.equal(mobileSigner.email, null, 'the mobile-only signer has no address');
    // Assigned by e-mail address: full_name, and every field no entry names (signature).
    assert.deepEqual(Object.fromEntries(created.fields.map((f) => [f.name, f.assigned_to])), {
      full_name: clientRef(email),
      signature: clientRef(email),
      witness_signature: mobile,
    });
    for (const signer of created.signers)
      assert.ok(signer.request_url.startsWith(`${system.gatewayUrl}/sign?`), signer.request_url);

    // Not live before send.
    const early = await conformingFetch(alice.request_url);
    assert.equal(early.status, 409, 'an Execution URL is not live before send');

    const sent = ok(
      await acme.esign.POST('/v1.1/requests/{request_id}/send', {
        params: { path: { request_id: created.id } },
      }),
      200,
      'send',
    );
    assert.equal(sent.state, 'sent');

    const mail = await waitForMail(system, email);
    const sms = await waitForSms(system, e164);
    const mailUrl = executionUrlIn(mail.mail.text ?? mail.mail.html ?? '');
    const smsUrl = executionUrlIn(sms.body);
    assert.equal(mailUrl, alice.request_url, 'the e-mail carries the signer’s own Execution URL');
    assert.equal(mail.mail.subject, 'Your agreement with Acme, to sign', 'the sender’s subject');
    assert.ok(
      mail.mail.text?.includes('> Please sign before the start date.\n> Thank you, Acme'),
      mail.mail.text,
    );
    assert.equal(smsUrl, mobileSigner.request_url, 'the SMS carries the signer’s own Execution URL');
    assert.equal(mailsTo(system, email).length, 1);
    assert.equal(smsTo(system, e164).length, 1);
    assert.ok(
      !system.twilio.sent.some((m) => m.body.includes(alice.request_url)),
      'the e-mail signer, who has no mobile, is not texted',
    );

    // Alice signs from her e-mail, through the gateway, and is sent to the redirect URL.
    const aliceSigns = await signAt(mailUrl, 'Alice Example');
    assert.equal(aliceSigns.pageStatus, 200, aliceSigns.page.slice(0, 500));
    assert.match(aliceSigns.page, /Jane Q\. Client/, 'render_data is merged into the contract text');
    assert.ok(
      aliceSigns.page.includes(`<p class="sender-message">${message}</p>`),
      'the message on her page',
    );
    assert.equal(aliceSigns.status, 303);
    assert.ok(
      aliceSigns.location?.startsWith('https://client.example/after-signing?'),
      aliceSigns.location ?? '',
    );
    const halfway = await get(created.id);
    assert.equal(halfway.state, 'sent', 'one of two signers signed: still open');
    assert.equal(halfway.signers[0]!.state, 'signed');

    // The mobile-only signer signs from the SMS.
    const mobileSigns = await signAt(smsUrl, 'Morgan Mobile');
    assert.equal(mobileSigns.status, 303);
    assert.ok(mobileSigns.location?.startsWith('https://client.example/after-signing?'));

    const done = await get(created.id);
    assert.equal(done.state, 'completed');
    assert.ok(done.signers.every((s) => s.state === 'signed' && s.signed_at !== null));
    // The notifier's outcomes reach the Request.
    await eventually(async () => {
      const view = await get(created.id);
      return view.signers[0]!.notifications.email === 'delivered' &&
        view.signers[1]!.notifications.sms === 'delivered'
        ? true
        : undefined;
    }, 15_000);

    assert.ok(
      (await list('completed')).data.some((r) => r.id === created.id),
      'listed as completed',
    );
    assert.ok(!(await list('sent')).data.some((r) => r.id === created.id), 'no longer listed as sent');

    const download = await acme.esign.GET('/v1.1/requests/{request_id}/download', {
      params: { path: { request_id: created.id } },
      parseAs: 'arrayBuffer',
    });
    assert.equal(download.response.status, 200);
    assert.match(download.response.headers.get('content-type') ?? '', /^application\/pdf/);
    assert.equal(Buffer.from(download.data!).subarray(0, 5).toString(), '%PDF-');

    // A used link now says the document is complete rather than offering the form again.
    const again = await conformingFetch(mailUrl);
    assert.equal(again.status, 410);
  });
});
