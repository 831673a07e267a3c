import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { NotifiedSigner } from '@esign/contracts';
import { eventually, type SmtpDouble, type TcpProxy, type TwilioApiDouble } from '@esign/testing';
import type { RunningNotifier } from '../../src/service.js';
import { requestReminded, requestSent, signer } from '../support/events.js';
import { notifierFixture } from '../support/notifier-fixture.js';

// The redelivery test cuts the broker: it runs after the first test, which leaves the notifier
// time to finish its broker setup (see notifier-fixture.ts). Keep it from running first.
describe('notifier: e-mail and SMS to signers when a Request is sent (sending, redeliveries, retries and reminders)', function () {
  const { ctx, unique, mailTo, smsTo, outcomesOf, publish, deliveryStatus, settled, quiet } =
    notifierFixture();
  let smtp: SmtpDouble;
  let smtpProxy: TcpProxy;
  let amqpProxy: TcpProxy;
  let twilio: TwilioApiDouble;
  let notifier: RunningNotifier;
  before(() => {
    ({ smtp, smtpProxy, amqpProxy, twilio, notifier } = ctx);
  });

  it('e-mails and texts exactly the signers send_to selects, each with their own Execution URL', async () => {
    const u = unique();
    const alice = signer({ signer_id: u.email('alice'), email: u.email('alice') });
    const bob = signer({
      signer_id: u.email('bob'),
      email: u.email('bob'),
      mobile_number: u.mobile(2),
      send_to: { email: true, mobile_number: true },
    });
    // Identified by a mobile number only: an SMS, never an e-mail.
    const carol = signer({
      signer_id: u.mobile(3).slice(1),
      email: null,
      mobile_number: u.mobile(3),
      send_to: { email: true, mobile_number: true },
    });
    // A GUID and no address: nothing to reach.
    const dave = signer({ signer_id: randomUUID(), email: null });
    const erin = signer({ email: u.email('erin'), send_to: { email: false, mobile_number: false } });
    const event = requestSent([alice, bob, carol, dave, erin]);
    await publish(event);

    const reported = await settled(event.id, 4);
    await quiet();
    const all = [alice, bob, carol, dave, erin];
    const emailed = smtp.received.filter((m) => all.some((s) => s.email !== null && m.to.includes(s.email)));
    assert.deepEqual(emailed.map((m) => m.to).sort(), [[u.email('alice')], [u.email('bob')]]);
    const texted = twilio.sent.filter((m) =>
      all.some((s) => s.mobile_number !== null && m.to === `+${s.mobile_number}`),
    );
    assert.deepEqual(texted.map((m) => m.to).sort(), [`+${u.mobile(2)}`, `+${u.mobile(3)}`]);

    const own = (s: NotifiedSigner, text: string) =>
      text.includes(s.request_url) && all.filter((o) => o !== s).every((o) => !text.includes(o.signer_ref));
    for (const s of [alice, bob]) {
      const [mail] = mailTo(s.email!);
      assert.ok(own(s, mail!.mail.text ?? ''), `text part for ${s.email}`);
      assert.ok(
        (mail!.mail.html ?? '').includes(s.request_url.replaceAll('&', '&amp;')),
        `html part for ${s.email}`,
      );
      assert.equal(mail!.mail.subject, 'Acme Lettings sent you "Tenancy agreement" and "Inventory" to sign');
      assert.equal(mail!.from, 'no-reply@esign.example');
    }
    for (const s of [bob, carol])
      assert.ok(own(s, smsTo(`+${s.mobile_number}`)[0]!.body), `SMS for ${s.signer_id}`);

    assert.deepEqual(
      reported.map((o) => [o.type, o.data.signer_ref, o.data.channel]).sort(),
      [
        ['notification.delivered', alice.signer_ref, 'email'],
        ['notification.delivered', bob.signer_ref, 'email'],
        ['notification.delivered', bob.signer_ref, 'sms'],
        ['notification.delivered', carol.signer_ref, 'sms'],
      ].sort(),
    );
    const bobSms = reported.find((o) => o.data.signer_ref === bob.signer_ref && o.data.channel === 'sms');
    assert.equal(bobSms?.data.provider_message_id, smsTo(`+${bob.mobile_number}`)[0]?.sid);
    assert.equal(bobSms?.data.request_id, 'rq_1');
    assert.equal(bobSms?.data.to, bob.mobile_number, 'the number as the event named it (ADR 3140)');
    assert.equal(bobSms?.site_id, 7);
  });

  it('sends one message when RabbitMQ redelivers the event mid-send, and one when it is published twice', async () => {
    const u = unique();
    const alice = signer({ email: u.email('alice') });
    const event = requestSent([alice]);
    // Slow SMTP keeps the message in hand while the broker connection drops: RabbitMQ
    // requeues it unacked and hands it over again once the notifier reconnects.
    smtpProxy.delay(150);
    await publish(event);
    await eventually(async () =>
      (await deliveryStatus(event.id, alice.signer_ref, 'email'))?.status === 'sending' ? true : undefined,
    );
    amqpProxy.cut();
    await new Promise((r) => setTimeout(r, 200));
    amqpProxy.restore();
    await settled(event.id, 1);
    smtpProxy.delay(0);
    await quiet();
    const skipped = async () => {
      const text = (await request(notifier.app.callback()).get('/metrics')).text;
      return [
        ...text.matchAll(/notifier_messages_total\{[^}]*outcome="skipped_(?:settled|busy)"[^}]*\} (\d+)/g),
      ].reduce((sum, m) => sum + Number(m[1]), 0);
    };
    // The redelivered copy was handled: it found the message sent (or being sent) and sent nothing.
    const skippedAfterRedelivery = await eventually(async () => {
      const n = await skipped();
      return n >= 1 ? n : undefined;
    });
    assert.equal(mailTo(u.email('alice')).length, 1);

    // The outbox relay's duplicate: the same envelope published again.
    await publish(event);
    await eventually(async () => ((await skipped()) > skippedAfterRedelivery ? true : undefined));
    await quiet();
    assert.equal(mailTo(u.email('alice')).length, 1);
    assert.equal(outcomesOf(event.id).length, 1);
    assert.equal((await deliveryStatus(event.id, alice.signer_ref, 'email'))?.attempts, 1);
  });

  it('retries a refused SMTP connection and a Twilio 429, redoing only what was not accepted', async () => {
    const u = unique();
    const alice = signer({
      email: u.email('alice'),
      mobile_number: u.mobile(1),
      send_to: { email: true, mobile_number: true },
    });
    const bob = signer({ email: u.email('bob') });
    const event = requestSent([alice, bob]);
    smtpProxy.cut();
    twilio.failNext(1, 429, 20429, 'Too Many Requests');
    await publish(event);
    await eventually(async () => {
      const row = await deliveryStatus(event.id, bob.signer_ref, 'email');
      return row?.status === 'retrying' ? row : undefined;
    });
    await eventually(async () =>
      (await deliveryStatus(event.id, alice.signer_ref, 'sms'))?.status === 'delivered' ? true : undefined,
    );
    smtpProxy.restore();

    const reported = await settled(event.id, 3);
    await quiet();
    assert.deepEqual(
      reported.map((o) => o.type),
      Array(3).fill('notification.delivered'),
    );
    assert.equal(mailTo(u.email('alice')).length, 1);
    assert.equal(mailTo(u.email('bob')).length, 1);
    assert.equal(smsTo(`+${u.mobile(1)}`).length, 1);
    assert.deepEqual(
      twilio.requests.filter((r) => r.to === `+${u.mobile(1)}`).map((r) => r.status),
      [429, 201],
    );
    const bobRow = await deliveryStatus(event.id, bob.signer_ref, 'email');
    assert.equal(bobRow?.status, 'delivered');
    assert.ok((bobRow?.attempts ?? 0) >= 2);
  });

  it('sends reminders too, as new messages of their own', async () => {
    const u = unique();
    const alice = signer({ email: u.email('alice') });
    const reminder = requestReminded([alice]);
    await publish(reminder);
    const [outcome] = await settled(reminder.id, 1);
    assert.equal(outcome?.type, 'notification.delivered');
    const [mail] = mailTo(u.email('alice'));
    assert.match(mail?.mail.subject ?? '', /^Reminder: Acme Lettings is waiting for your signature/);
    assert.ok((mail?.mail.text ?? '').includes(alice.request_url));
  });

  it('serves health, readiness and metrics over HTTP, and no requests API', async () => {
    const http = request(notifier.app.callback());
    assert.equal((await http.get('/healthz')).status, 200);
    assert.equal((await http.get('/readyz')).status, 200);
    const metrics = await http.get('/metrics');
    assert.match(metrics.text, /notifier_messages_total\{[^}]*outcome="delivered"/);
    assert.equal((await http.get('/v1.1/requests')).status, 404);
  });
});
